/**
 * The longest record (its line breaks inside quotes included) the CSV readers take unless told
 * otherwise: without a bound a file of one 200 MB line was held whole while the reader looked
 * for its end, and took the server to 1.56 GB. Generous, for the archives' rows of long texts;
 * usage files have a bound of their own (USAGE_MAX_LINE_CHARS).
 */
export const MAX_LINE_CHARS = 16 * 1024 * 1024

/** The longest line of a usage file: its records are a few hundred characters. */
export const USAGE_MAX_LINE_CHARS = 16 * 1024

/** A CSV syntax error, with the line it was found on. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`)
  }
}

/** A line past the reader's bound: reading stops there, without holding the rest of it. */
export class CsvLineTooLong extends CsvSyntaxError {
  constructor(
    line: number,
    readonly limit: number,
  ) {
    super(line, `the line is longer than ${limit} characters`)
  }
}
