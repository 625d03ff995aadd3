import { BillingError } from '../../core/errors.js'
import { csvRecordBatches, CsvLineTooLong, CsvSyntaxError, type CsvReadOptions, type CsvRecord } from './csv-records.js'

/** How to quote, and that the file may be sent again whole: an import of one is all or nothing. */
const QUOTING = `Quote a field that holds a comma, a quote or a line break, and double each quote inside it ("say ""hi"""); then send the whole file again: nothing of it was kept.`

export interface CsvFileOptions extends Omit<CsvReadOptions<string>, 'cast' | 'skipEmptyLines'> {
  /** What to do about a line past `maxLineChars`; by default, the bound and that nothing was kept. */
  readonly tooLongHint?: string
}

/**
 * The records of a CSV file a client sent (a usage file, a carrier's bill, a destination table's
 * prefixes), in batches as `csvRecordBatches` reads them, empty lines skipped. Malformed CSV and
 * a line past the bound are the sender's mistakes: `invalid_field` (400101) naming the line,
 * never an unexpected failure, whichever importer reads the file.
 */
export async function* csvFileBatches(text: AsyncIterable<string> | Iterable<string>, options: CsvFileOptions = {}): AsyncGenerator<CsvRecord<string>[]> {
  const { tooLongHint, ...read } = options
  try {
    yield* csvRecordBatches(text, { ...read, skipEmptyLines: true })
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error
    if (error instanceof CsvLineTooLong) {
      throw new BillingError('invalid_field', error.message, tooLongHint ?? `A line holds at most ${error.limit} characters: check that the file is the right one, with line breaks between its records; then send the whole file again: nothing of it was kept.`)
    }
    throw new BillingError('invalid_field', error.message, QUOTING)
  }
}
