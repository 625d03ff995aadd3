import { BillingError } from '../errors.js'
import { unstorableReason } from '../fields/storable-text.js'
import { parseUsageHeader, parseUsageRow, type UsageHeader, type UsageRecord } from './usage-record.js'

/** One CSV record of a usage file, as the CSV adapter reads it, with the line it starts on. */
export interface UsageLine {
  readonly fields: readonly string[]
  readonly line: number
}

/**
 * Reads a usage file one record at a time, so a large file never has to be held in memory: the
 * first record is the header, records of blank fields only are skipped. Any bad record throws
 * `invalid_field` naming its line; the caller then keeps nothing of the file (contract 9.6).
 */
export class UsageFileReader {
  private header: UsageHeader | null = null
  private records = 0

  /** The record, or null for the header and blank records. */
  read({ fields, line }: UsageLine): UsageRecord | null {
    this.records++
    if (fields.every((f) => f.trim() === '')) return null
    for (let i = 0; i < fields.length; i++) {
      const why = unstorableReason(fields[i])
      if (why) throw new BillingError('invalid_field', `line ${line}: field ${i + 1} ${why}`, 'Remove the NUL characters (no column stores them) and send the file again.')
    }
    if (!this.header) {
      this.header = parseUsageHeader(fields, line)
      return null
    }
    return parseUsageRow(this.header, fields, line)
  }

  /** Records read so far, the header included. */
  get lines(): number {
    return this.records
  }

  /** Call at the end of the file: throws when it had no header line. */
  finish(): void {
    if (!this.header) throw new BillingError('invalid_field', 'the usage file is empty: expected a header line', `Start the file with a header line naming its columns.`)
  }
}
