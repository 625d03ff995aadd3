/**
 * The cells of every CSV written for people (the books' reports, a carrier bill's
 * reconciliation, the calls CSVs of invoice emails and the portal), who open them in spreadsheet
 * software: RFC 4180 quoting, and text that a spreadsheet would take for a formula neutralised
 * (OWASP's CSV injection advice). The disaster-recovery archive's CSVs are machine files written
 * elsewhere (adapters/archive) and keep their text as it is. The journal's lines the database
 * writes follow the same rule in SQL (adapters/persistence/reports/invoice-journal-csv.ts).
 */

/** The first characters that make a spreadsheet read a cell as a formula (or a DDE command). */
const FORMULA_START = /^[=+\-@\t\r]/
/**
 * Digits, spaces, `+`, `-`, `(`, `)` and `.` alone: a telephone number (`+44 (0)20 7946 0000`) or
 * a signed figure. Nothing in it can call a function or a DDE command, so it is left as it is: a
 * `'` before every international number would spoil the calls CSVs for no safety.
 */
export const NUMBER_LIKE = /^[\d +\-().]+$/

/** RFC 4180: a cell holding a quote, comma, CR or LF is quoted, its quotes doubled. */
const quoted = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s)

/**
 * A text cell (a name, a description, a reference, a code: anything a client stored): a `'` before
 * a first `=`, `+`, `-`, `@`, tab or CR, so a spreadsheet shows the text and never runs it (unless
 * it is `NUMBER_LIKE`), then quoted as RFC 4180 requires. Null is empty.
 */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined) return ''
  return quoted(FORMULA_START.test(value) && !NUMBER_LIKE.test(value) ? `'${value}` : value)
}

/**
 * A cell of a numeric column (an amount, a quantity, a count, a date, an ID), written as the
 * platform made it: a negative amount keeps its `-`. Decided by the column, never by the value.
 */
export function csvNumeric(value: string | number | bigint | null | undefined): string {
  return value === null || value === undefined ? '' : quoted(String(value))
}

/**
 * A cell whose kind is its JavaScript type, as a resource's wire form gives it (amounts,
 * quantities and counts are numbers): a string is text (`csvText`), anything else numeric.
 */
export const csvCell = (value: unknown): string => (typeof value === 'string' ? csvText(value) : csvNumeric(value as number | bigint | null | undefined))

/** One CSV line of values (`csvCell` each), CRLF-terminated. */
export const csvLine = (values: readonly unknown[]): string => values.map(csvCell).join(',') + '\r\n'
