import { pipeline, Readable } from 'node:stream'
import { CsvError, parse, type CastingContext, type Options } from 'csv-parse'
import { CsvLineTooLong, CsvSyntaxError, MAX_LINE_CHARS } from './csv-line-limit.js'
import { ParserLines } from './parser-lines.js'
import { UnquotedRecords } from './unquoted-records.js'

/** One record and the line it starts on (1-based, counting every physical line). */
export interface CsvRecord<T> {
  readonly fields: T[]
  readonly line: number
}

export { CsvLineTooLong, CsvSyntaxError } from './csv-line-limit.js'

export interface CsvReadOptions<T> {
  /** Turns each field into its value (csv-parse's `cast`), knowing whether it was quoted. */
  readonly cast?: (value: string, quoted: boolean) => T
  /** Skips lines with nothing on them. */
  readonly skipEmptyLines?: boolean
  /** The longest record taken (MAX_LINE_CHARS by default); a longer one throws `CsvLineTooLong`. */
  readonly maxLineChars?: number
  /** The field separator: `,` by default; a carrier's format may name `;`, a tab or `|` (contract 17.3). */
  readonly delimiter?: string
}

/**
 * Records of RFC 4180 CSV (comma separated, `""` for a quote, line breaks allowed inside quotes,
 * CRLF or LF, a UTF-8 BOM ignored), read as the text arrives: memory holds the record being
 * read, and the source is read only as fast as records are taken (backpressure).
 */
export async function* csvRecords<T = string>(text: AsyncIterable<string> | Iterable<string>, options: CsvReadOptions<T> = {}): AsyncGenerator<CsvRecord<T>> {
  for await (const batch of csvRecordBatches(text, options)) yield* batch
}

/**
 * The records of `csvRecords`, given as they are read: all of a piece of text's records (or a
 * few pieces'), together. An importer takes a batch in one step of its loop, where a record at
 * a time cost promises and async-iterator steps in three generators per record, about a fifth
 * of what an import allocated (bench/rating.ts, with a sampling heap profile; bench/RESULTS.md).
 * Text with no quote is split here (`UnquotedRecords`); from the first piece with a quote on,
 * csv-parse reads the rest. The source is read only as fast as batches are taken.
 */
export async function* csvRecordBatches<T = string>(text: AsyncIterable<string> | Iterable<string>, options: CsvReadOptions<T> = {}): AsyncGenerator<CsvRecord<T>[]> {
  const pieces: AsyncIterator<string> | Iterator<string> = Symbol.asyncIterator in text ? text[Symbol.asyncIterator]() : text[Symbol.iterator]()
  const unquoted = new UnquotedRecords<T>(options.cast, options.maxLineChars ?? MAX_LINE_CHARS, options.delimiter ?? ',')
  const kept = (records: CsvRecord<T>[]) => (options.skipEmptyLines ? records.filter((r) => !isEmpty(r.fields)) : records)
  try {
    for (;;) {
      const next = await pieces.next()
      if (next.done) {
        const last = kept(unquoted.end())
        if (last.length > 0) yield last
        return
      }
      const records = unquoted.take(next.value)
      if (records === null) {
        yield* parsedRecordBatches(readOn(unquoted.pending(next.value), pieces), options, unquoted.line, !unquoted.started)
        return
      }
      const batch = kept(records)
      if (batch.length > 0) yield batch
    }
  } finally {
    await pieces.return?.()
  }
}

/** `first`, then the rest of `pieces`. */
async function* readOn(first: string, pieces: AsyncIterator<string> | Iterator<string>): AsyncGenerator<string> {
  yield first
  for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value
}

const isEmpty = (fields: readonly unknown[]) => fields.length === 1 && (fields[0] === '' || fields[0] === null)

/**
 * `csvRecordBatches` by csv-parse alone, as it has them: text whose first record starts on line
 * `firstLine`, with a BOM at its start dropped when `bom` (the tests compare the two readings).
 */
export async function* parsedRecordBatches<T>(text: AsyncIterable<string>, options: CsvReadOptions<T>, firstLine: number, bom: boolean): AsyncGenerator<CsvRecord<T>[]> {
  const cast = options.cast
  // No `info` (it doubles csv-parse's cost per record) and no skipping of empty lines: then every
  // record takes one line plus the line breaks inside its fields, so lines are counted here.
  const parserOptions: Options = {
    bom,
    relax_column_count: true,
    // Files mix CRLF and LF (a header typed on one system, rows appended on another).
    record_delimiter: ['\r\n', '\n'],
    delimiter: options.delimiter ?? ',',
    // A field or a record this long fails (CSV_MAX_RECORD_SIZE) instead of growing its buffer for ever.
    max_record_size: options.maxLineChars ?? MAX_LINE_CHARS,
    ...(cast ? { cast: (value: string, context: CastingContext) => cast(value, context.quoting) } : {}),
  }
  const parser = parse(parserOptions)
  // pipeline, not pipe: a source that fails (a body that is not UTF-8) fails the parser, and so
  // the loop below, instead of being an unhandled 'error' event.
  // The line an error is on is csv-parse's count, told as records count lines.
  const lines = new ParserLines()
  pipeline(Readable.from(lines.through(text), { objectMode: false }), parser, () => {})
  let line = firstLine
  try {
    for await (const records of readableBatches<T[]>(parser)) {
      const batch: CsvRecord<T>[] = []
      for (const record of records) {
        const start = line
        line++
        for (const field of record) if (typeof field === 'string' && field.includes('\n')) line += newlines(field)
        if (options.skipEmptyLines && isEmpty(record)) continue
        batch.push({ fields: record, line: start })
      }
      lines.taken(line - firstLine + 1)
      if (batch.length > 0) yield batch
    }
  } catch (error) {
    throw toSyntaxError(error, line, firstLine - 1, lines, options.maxLineChars ?? MAX_LINE_CHARS)
  } finally {
    parser.destroy()
  }
}

/**
 * An object-mode stream's chunks, all those it holds at each step: csv-parse pushes a piece of
 * text's records at once, and they are taken together. Throws the stream's error.
 */
async function* readableBatches<T>(stream: Readable): AsyncGenerator<T[]> {
  let ended = false
  let failed = false
  let failure: unknown
  let wake: (() => void) | null = null
  const onReadable = () => wake?.()
  const onEnd = () => {
    ended = true
    wake?.()
  }
  const onError = (error: unknown) => {
    if (!failed) [failed, failure] = [true, error]
    wake?.()
  }
  stream.on('readable', onReadable).on('end', onEnd).on('error', onError)
  try {
    for (;;) {
      if (failed) throw failure
      const batch: T[] = []
      for (let chunk = stream.read() as T | null; chunk !== null; chunk = stream.read() as T | null) batch.push(chunk)
      if (batch.length > 0) {
        yield batch
        continue
      }
      if (ended) return
      // Whatever happens while a batch is out (more records, the end, an error) is found by the read above.
      await new Promise<void>((resolve) => (wake = resolve))
      wake = null
    }
  } finally {
    stream.off('readable', onReadable).off('end', onEnd).off('error', onError)
  }
}

const newlines = (text: string): number => {
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}


/** csv-parse's message ("Invalid Closing Quote: got "x" at line 3 instead of delimiter...") as a reason and a line. */
function toSyntaxError(error: unknown, next: number, linesBefore: number, parserLines: ParserLines, maxLineChars: number): unknown {
  if (!(error instanceof CsvError)) return error
  const counted = (error as CsvError & { lines?: number }).lines
  const lines = counted === undefined ? next : parserLines.lineOf(counted) + linesBefore
  // An unclosed quote is only found at the end of the file; csv-parse names about where it opened.
  if (error.code === 'CSV_MAX_RECORD_SIZE') return new CsvLineTooLong(lines, maxLineChars)
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return new CsvSyntaxError(lines, 'a quoted field is not closed (it runs to the end of the file)')
  const reason = error.message.replace(/ at line \d+/, '').replace(/\.$/, '')
  return new CsvSyntaxError(lines, reason)
}
