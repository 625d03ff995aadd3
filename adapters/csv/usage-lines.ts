import { BillingError } from '../../core/errors.js'
import type { UsageLine } from '../../core/rating/usage-file-reader.js'
import { CsvLineTooLong, USAGE_MAX_LINE_CHARS } from './csv-line-limit.js'
import { csvRecordBatches, CsvSyntaxError } from './csv-records.js'

/**
 * A usage file's text as the records the importer reads, in batches as the text arrives:
 * RFC 4180 CSV by csv-parse (a quoted field may hold commas, quotes and line breaks), empty
 * lines skipped (values are trimmed by the reader), each record with the line it starts on.
 * Malformed CSV, and a line longer than USAGE_MAX_LINE_CHARS, is `invalid_field` naming the line.
 */
export async function* usageLines(text: AsyncIterable<string> | Iterable<string>, delimiter = ','): AsyncGenerator<UsageLine[]> {
  try {
    yield* csvRecordBatches(text, { skipEmptyLines: true, maxLineChars: USAGE_MAX_LINE_CHARS, delimiter })
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error
    if (error instanceof CsvLineTooLong) {
      throw new BillingError('invalid_field', error.message, `A usage record is one line of at most ${USAGE_MAX_LINE_CHARS} characters: check that the file is a usage file, with line breaks between its records; then send the whole file again: nothing of it was kept.`)
    }
    throw new BillingError(
      'invalid_field',
      error.message,
      `Quote a field that holds a comma, a quote or a line break, and double each quote inside it ("say ""hi"""); then send the whole file again: nothing of it was kept.`,
    )
  }
}
