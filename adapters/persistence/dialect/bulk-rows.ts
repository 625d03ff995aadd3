/**
 * The rows of a bulk insert: arrays of values, or a writer that puts row `index`'s values,
 * encoded for the driver, into `into` from `at`. A writer lets a caller that holds objects
 * encode them straight into a statement's parameters: an array per row on the way was a
 * million arrays for a billing run's ledger rows, and a second copy of every value.
 */
export type BulkRows = readonly (readonly unknown[])[] | RowWriter

export interface RowWriter {
  readonly length: number
  write(index: number, into: unknown[], at: number): void
}

/** Rows `from`..`to` written one after another into `into` from `at`. */
export function writeRows(rows: BulkRows, from: number, to: number, width: number, into: unknown[], at = 0): void {
  if (!Array.isArray(rows)) {
    const writer = rows as RowWriter
    for (let r = from; r < to; r++, at += width) writer.write(r, into, at)
    return
  }
  for (let r = from; r < to; r++) {
    const row = (rows as readonly (readonly unknown[])[])[r]
    for (let c = 0; c < width; c++) into[at++] = row[c]
  }
}
