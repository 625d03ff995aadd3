import { BillingError } from '../errors.js'
import { parseCsvLine } from './csv-line.js'
import { parseUsageHeader, parseUsageRow, type UsageHeader, type UsageRecord } from './usage-record.js'

/**
 * Reads a usage file one physical line at a time, so a large file never has to be held in
 * memory: the first non-blank line is the header, blank lines are skipped, line numbers count
 * every line from 1. Any bad line throws `invalid_field` naming its line; the caller then
 * keeps nothing of the file (contract 9.6).
 */
export class UsageFileReader {
  private header: UsageHeader | null = null
  private lineNumber = 0

  /** The record on the next line, or null for the header and blank lines. */
  read(line: string): UsageRecord | null {
    this.lineNumber++
    if (line.trim() === '') return null
    const fields = parseCsvLine(line, this.lineNumber)
    if (!this.header) {
      this.header = parseUsageHeader(fields, this.lineNumber)
      return null
    }
    return parseUsageRow(this.header, fields, this.lineNumber)
  }

  /** Lines read so far. */
  get lines(): number {
    return this.lineNumber
  }

  /** Call at the end of the file: throws when it had no header line. */
  finish(): void {
    if (!this.header) throw new BillingError('invalid_field', 'the usage file is empty: expected a header line')
  }
}
