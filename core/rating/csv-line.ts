import { BillingError } from '../errors.js'
import { isStorableText } from '../fields/storable-text.js'

/**
 * One CSV record on one line (RFC 4180 quoting, comma separated). Streaming-friendly: the
 * caller splits the body into lines and feeds them one at a time, so a record may not contain
 * a line break, even inside quotes.
 *
 * - A field wrapped in double quotes may contain commas; `""` inside it is one quote.
 * - Spaces or tabs around a quoted field are dropped; an unquoted field is returned as is.
 * - A quote inside an unquoted field, text after a closing quote, or an unclosed quote is an
 *   error (`invalid_field`, naming the line when `lineNumber` is given).
 * - A trailing `\r` (CRLF files) is ignored.
 * - A NUL character anywhere is an error: no database column holds one.
 */
export function parseCsvLine(line: string, lineNumber?: number): string[] {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line
  const fail = (reason: string, column: number): never => {
    const where = lineNumber === undefined ? '' : `line ${lineNumber}: `
    throw new BillingError('invalid_field', `${where}${reason} at character ${column + 1}`)
  }
  if (!isStorableText(text)) fail('a NUL character', text.indexOf('\u0000'))
  const fields: string[] = []
  let i = 0
  for (;;) {
    const start = i
    while (text[i] === ' ' || text[i] === '\t') i++
    if (text[i] === '"') {
      let value = ''
      i++
      for (;;) {
        const q = text.indexOf('"', i)
        if (q < 0) fail('unclosed quoted field', start)
        value += text.slice(i, q)
        if (text[q + 1] === '"') {
          value += '"'
          i = q + 2
        } else {
          i = q + 1
          break
        }
      }
      while (text[i] === ' ' || text[i] === '\t') i++
      if (i < text.length && text[i] !== ',') fail('text after a closing quote', i)
      fields.push(value)
    } else {
      i = start
      const comma = text.indexOf(',', i)
      const end = comma < 0 ? text.length : comma
      const value = text.slice(i, end)
      const quote = value.indexOf('"')
      if (quote >= 0) fail('a quote inside an unquoted field', i + quote)
      if (/[\r\n]/.test(value)) fail('a line break inside a record', i)
      fields.push(value)
      i = end
    }
    if (i >= text.length) return fields
    i++ // the comma
  }
}

const NEEDS_QUOTES = /[",\r\n]|^[ \t]|[ \t]$/

/**
 * The CSV line of `fields`, quoting only the fields that need it; `parseCsvLine` reads it back
 * (for fields without line breaks, which a one-line record cannot hold).
 */
export function formatCsvLine(fields: readonly string[]): string {
  return fields.map((f) => (NEEDS_QUOTES.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(',')
}
