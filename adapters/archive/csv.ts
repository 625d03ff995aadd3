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

type State = 'start' | 'plain' | 'quoted' | 'quote' // `quote`: a quote seen inside a quoted field

/**
 * Parses CSV text arriving in chunks, one record at a time (memory bounded by the longest
 * record). Accepts CRLF or LF line ends; a malformed quote fails with its line number.
 */
export async function* parseCsv(chunks: AsyncIterable<string>): AsyncGenerator<Cell[]> {
  let record: Cell[] = []
  let field = ''
  let state: State = 'start'
  let line = 1
  let quotedFrom = 1 // the line where the open quoted field began
  let skipLf = false
  const endField = () => {
    record.push(state === 'start' ? null : field)
    field = ''
    state = 'start'
  }
  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i]
      if (skipLf) {
        skipLf = false
        if (ch === '\n') continue
      }
      if (state === 'quoted') {
        if (ch === '"') state = 'quote'
        else {
          if (ch === '\n') line++
          field += ch
        }
        continue
      }
      if (state === 'quote' && ch === '"') {
        field += '"'
        state = 'quoted'
        continue
      }
      if (ch === ',') {
        endField()
      } else if (ch === '\r' || ch === '\n') {
        endField()
        yield record
        record = []
        skipLf = ch === '\r'
        line++
      } else if (ch === '"') {
        if (state !== 'start') throw new Error(`CSV line ${line}: stray quote`)
        state = 'quoted'
        quotedFrom = line
      } else {
        if (state === 'quote') throw new Error(`CSV line ${line}: text after a closing quote`)
        field += ch
        state = 'plain'
      }
    }
  }
  if (state === 'quoted') throw new Error(`CSV line ${quotedFrom}: unterminated quoted field`)
  if (state !== 'start' || record.length > 0) {
    endField()
    yield record
  }
}
