import type { UsageLine } from '../../core/rating/usage-file-reader.js'
import { USAGE_MAX_LINE_CHARS } from './csv-line-limit.js'
import { csvFileBatches } from './csv-file.js'

/**
 * A usage file's text as the records the importer reads, in batches as the text arrives:
 * RFC 4180 CSV by csv-parse (a quoted field may hold commas, quotes and line breaks), empty
 * lines skipped (values are trimmed by the reader), each record with the line it starts on.
 * Malformed CSV, and a line longer than USAGE_MAX_LINE_CHARS, is `invalid_field` naming the line.
 */
export function usageLines(text: AsyncIterable<string> | Iterable<string>, delimiter = ','): AsyncGenerator<UsageLine[]> {
  return csvFileBatches(text, {
    maxLineChars: USAGE_MAX_LINE_CHARS,
    delimiter,
    tooLongHint: `A usage record is one line of at most ${USAGE_MAX_LINE_CHARS} characters: check that the file is a usage file, with line breaks between its records; then send the whole file again: nothing of it was kept.`,
  })
}
