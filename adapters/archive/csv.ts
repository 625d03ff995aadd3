import { csvRecords, CsvSyntaxError } from '../csv/csv-records.js'

/**
 * CSV as RFC 4180 writes it: fields separated by commas, records ended by CRLF, a field quoted
 * (with inner quotes doubled) when it holds a comma, a quote, CR or LF. NULL is an empty
 * unquoted field and the empty string a quoted one (`""`), so the two stay apart (as Postgres
 * COPY … CSV does).
 */
export type Cell = string | null

const NEEDS_QUOTES = /[",\r\n]/

function csvField(cell: Cell): string {
  if (cell === null) return ''
  if (cell === '' || NEEDS_QUOTES.test(cell)) return `"${cell.replace(/"/g, '""')}"`
  return cell
}

/** One record, CRLF included. */
export const csvRecord = (cells: readonly Cell[]): string => `${cells.map(csvField).join(',')}\r\n`

/**
 * Parses archive CSV as it streams from the file, one record at a time (memory bounded by the
 * longest record), with csv-parse: an empty unquoted field is NULL, a quoted one the empty
 * string. Accepts CRLF or LF line ends; malformed quoting fails with its line number.
 */
export async function* parseCsv(chunks: AsyncIterable<string>): AsyncGenerator<Cell[]> {
  try {
    for await (const { fields } of csvRecords<Cell>(chunks, { cast: (value, quoted) => (value === '' && !quoted ? null : value) })) yield fields
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new Error(`CSV ${error.message}`)
    throw error
  }
}
