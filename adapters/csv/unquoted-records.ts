import { CsvLineTooLong, MAX_LINE_CHARS } from './csv-line-limit.js'

/**
 * CSV text that holds no quote, split as csv-parse splits it (`csvRecordBatches`'s options): a
 * record a line, at `\n` or `\r\n` (a lone `\r` is data), fields at commas (or the delimiter given), a UTF-8 BOM dropped
 * at the very start, and an empty line one empty field. Without quotes nothing else can happen,
 * and a usage file seldom has any. csv-parse re-encodes each piece of text to bytes and decodes
 * each field back: 4.5-6.0 µs a row of the rating bench's file, against 0.63-0.87 split here
 * (bench/RESULTS.md, session 23). A line longer than `maxLineChars` throws `CsvLineTooLong`,
 * as soon as that much of it is held.
 */
export class UnquotedRecords<T> {
  /**
   * The text after the last line break, waiting for the rest of its line: kept as pieces and
   * joined once a line break comes, so a long line is not copied and searched again each piece.
   */
  private rest: string[] = []
  /** The characters in `rest`. */
  private restLength = 0
  /** Whether the text's start has been read and its BOM dropped (a BOM after that is data). */
  started = false
  /** The line the next record starts on (1-based). */
  line = 1

  constructor(
    private readonly cast?: (value: string, quoted: boolean) => T,
    private readonly maxLineChars = MAX_LINE_CHARS,
    private readonly delimiter = ',',
  ) {}

  /**
   * The records `piece` completes, or null if it holds a quote: then the text from the start
   * of the unfinished line is `pending(piece)`, for a full parser to read on from `line`.
   */
  take(piece: string): Line<T>[] | null {
    if (piece.includes('"')) return null
    if (!piece.includes('\n')) {
      this.restLength += piece.length
      if (this.restLength > this.maxLineChars) throw new CsvLineTooLong(this.line, this.maxLineChars)
      this.rest.push(piece)
      return []
    }
    const text = this.begin(this.pending(piece))
    const records: Line<T>[] = []
    let from = 0
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', from)) {
      if (at - from > this.maxLineChars) throw new CsvLineTooLong(this.line, this.maxLineChars)
      records.push(this.record(text.slice(from, at > from && text.charCodeAt(at - 1) === CR ? at - 1 : at)))
      from = at + 1
    }
    this.rest = from === text.length ? [] : [from === 0 ? text : text.slice(from)]
    this.restLength = text.length - from
    if (this.restLength > this.maxLineChars) throw new CsvLineTooLong(this.line, this.maxLineChars)
    return records
  }

  /** The text a full parser reads on with: the unfinished line, then `piece`. */
  pending(piece: string): string {
    return this.rest.length === 0 ? piece : this.rest.join('') + piece
  }

  /** At the end of the text: the last line, when it has no line break after it. */
  end(): Line<T>[] {
    const last = this.begin(this.pending(''))
    this.rest = []
    this.restLength = 0
    return last === '' ? [] : [this.record(last)]
  }

  private begin(text: string): string {
    if (this.started || text === '') return text
    this.started = true
    return text.charCodeAt(0) === BOM ? text.slice(1) : text
  }

  private record(line: string): Line<T> {
    const values = line.split(this.delimiter)
    const cast = this.cast
    return { fields: (cast ? values.map((v) => cast(v, false)) : values) as T[], line: this.line++ }
  }
}

/** A record and the line it starts on, as `CsvRecord` (csv-records.ts, which reads through this). */
type Line<T> = { fields: T[]; line: number }

const CR = 13
const BOM = 0xfeff
