import { format as formatDate } from 'date-fns/format'
import { isValid } from 'date-fns/isValid'
import { parse } from 'date-fns/parse'
import { BillingError, quoted } from '../../core/errors.js'
import { patternOptions, type DurationForm, type UsageFormat } from '../../core/presets/carrier-maps.js'
import type { UsageLine } from '../../core/rating/usage-file-reader.js'
import { requiredUsageColumns, usageColumns, type UsageColumn } from '../../core/rating/usage-record.js'
import { UTCDate } from './utc-date.js'

/** Where each of our columns comes from in the carrier's file (a header position, or date and time positions). */
type Source = { readonly column: UsageColumn; readonly headers: readonly string[]; readonly at: readonly number[] }

const CACHE_MAX = 100_000

/**
 * A carrier's usage file, read with a `usageFormats` entry (contract 17.3), as the lines of our
 * own layout the importer reads: the header is the carrier's, matched by the format's names
 * (case and surrounding spaces ignored; columns the format does not name are left out); each
 * row's start is made from its date and time by the format's date-fns patterns (as UTC), its
 * duration from seconds, `mm:ss` or `hh:mm:ss`; the format's `carrier` fills a file without a
 * carrier column. A date, time or duration that does not parse (a date or time must be written
 * exactly as its pattern writes it: `parsed`) fails the file naming the line and the carrier's
 * column, and so does a row with fewer fields than the header (a truncated line is not read as
 * empty values); the importer checks the rest (`carrierColumnsNamed` names
 * theirs). `today` (the clock's date, `YYYY-MM-DD`) is date-fns's reference date: what a pattern
 * leaves out comes from it, and a two-digit year (`yy`) is put within 50 years of it (26 → 2026).
 */
export async function* carrierFormatLines(lines: AsyncIterable<UsageLine[]>, name: string, format: UsageFormat, today: string): AsyncGenerator<UsageLine[]> {
  const mapped = checkFormat(name, format)
  const reference = new UTCDate(Date.parse(`${today.slice(0, 10)}T00:00:00Z`))
  let sources: Source[] | null = null
  let width = 0
  const dates = new Map<string, Reading>()
  const times = new Map<string, Reading>()
  const fixedCarrier = mapped.has('carrier') ? null : format.carrier!
  for await (const batch of lines) {
    const out: UsageLine[] = []
    for (const { fields, line } of batch) {
      if (!sources) {
        sources = headerSources(fields, line, name, mapped)
        width = fields.length
        out.push({ fields: [...sources.map((s) => s.column), ...(fixedCarrier !== null ? ['carrier'] : [])], line })
        continue
      }
      if (fields.every((f) => f.trim() === '')) continue
      if (fields.length < width) rowFails(line, `expected ${width} fields, found ${fields.length}`)
      const row: string[] = []
      for (const s of sources) {
        const text = (i: number) => (fields[s.at[i]] ?? '').trim()
        if (s.column === 'startTime') row.push(startOf(s, text(0), s.at.length > 1 ? text(1) : null, format, line, { reference, dates, times }))
        else if (s.column === 'durationSeconds') row.push(secondsOf(text(0), format.duration) ?? fails(line, s.headers[0], `${quoted(text(0))} is not a duration in ${format.duration}`))
        else row.push(text(0))
      }
      if (fixedCarrier !== null) row.push(fixedCarrier)
      out.push({ fields: row, line })
    }
    if (out.length > 0) yield out
  }
}

/** Our columns the format names, with their headers; a format that cannot make a usage record is refused. */
function checkFormat(name: string, format: UsageFormat): Map<UsageColumn, readonly string[]> {
  const mapped = new Map<UsageColumn, readonly string[]>()
  const problem = (reason: string): never => {
    throw new BillingError('invalid_field', `format ${quoted(name)}: ${reason}`, 'Correct the usageFormats entry in the presets file.')
  }
  for (const [ours, theirs] of Object.entries(format.columns)) {
    if (!(usageColumns as readonly string[]).includes(ours)) problem(`${quoted(ours)} is not a usage file column (${usageColumns.join(', ')})`)
    if (Array.isArray(theirs) && ours !== 'startTime') problem(`only startTime may come from a date and a time column, not ${ours}`)
    mapped.set(ours as UsageColumn, typeof theirs === 'string' ? [theirs] : theirs)
  }
  const missing = requiredUsageColumns.filter((c) => !mapped.has(c) && !(c === 'carrier' && format.carrier))
  if (missing.length) problem(`no column for ${missing.join(', ')}`)
  return mapped
}

function headerSources(fields: readonly string[], line: number, name: string, mapped: Map<UsageColumn, readonly string[]>): Source[] {
  const positions = new Map<string, number>()
  fields.forEach((raw, i) => {
    const header = (i === 0 ? raw.replace(/^\uFEFF/, '') : raw).trim().toLowerCase()
    if (!positions.has(header)) positions.set(header, i)
  })
  return [...mapped].map(([column, headers]) => ({
    column,
    headers,
    at: headers.map((h) => {
      const at = positions.get(h.trim().toLowerCase())
      if (at === undefined) {
        throw new BillingError('invalid_field', `line ${line}: the file has no column ${quoted(h)} (${column} in format ${quoted(name)})`, `The header holds: ${fields.map((f) => quoted(f.trim())).join(', ')}.`)
      }
      return at
    }),
  }))
}

/** An import's reference date and its caches of parsed dates and times. */
interface Parsing {
  readonly reference: Date
  readonly dates: Map<string, Reading>
  readonly times: Map<string, Reading>
}

/**
 * A carrier's date or time as read by its pattern: the ISO text of the instant, or, when the text
 * is not written as the pattern writes, what the pattern writes for what date-fns made of it
 * (`readsAs`, null when it made nothing).
 */
type Reading = string | { readonly readsAs: string | null }

/** `YYYY-MM-DDTHH:mm:ss[.SSS]Z` from the carrier's date and time (or one column holding both). */
function startOf(s: Source, dateText: string, timeText: string | null, format: UsageFormat, line: number, { reference, dates, times }: Parsing): string {
  if (timeText === null) {
    const pattern = `${format.dateFormat} ${format.timeFormat}`
    const both = cached(dates, dateText, () => parsed(dateText, pattern, reference))
    return typeof both === 'string' ? `${both.slice(0, 10)}T${clockOf(both)}Z` : fails(line, s.headers[0], `${quoted(dateText)} is not a date and time in ${pattern}${readAs(both)}`)
  }
  const date = cached(dates, dateText, () => parsed(dateText, format.dateFormat, reference))
  if (typeof date !== 'string') fails(line, s.headers[0], `${quoted(dateText)} is not a date in ${format.dateFormat}${readAs(date)}`)
  const time = cached(times, timeText, () => parsed(timeText, format.timeFormat, reference))
  if (typeof time !== 'string') fails(line, s.headers[1], `${quoted(timeText)} is not a time in ${format.timeFormat}${readAs(time)}`)
  return `${date.slice(0, 10)}T${clockOf(time)}Z`
}

/**
 * `HH:mm:ss`, with the fraction a format like `HH:mm:ss.SSS` reads (as our own layout keeps it):
 * two calls in one second are two calls. Without one, the text our layout reads fastest.
 */
const clockOf = (iso: string) => (iso.slice(19, 23) === '.000' ? iso.slice(11, 19) : iso.slice(11, 23))

const readAs = (r: { readonly readsAs: string | null }) => (r.readsAs === null ? '' : ` (it reads as ${r.readsAs})`)

/** Carriers repeat dates on every line, and times often: each is parsed once (date-fns takes microseconds). */
function cached(map: Map<string, Reading>, key: string, make: () => Reading): Reading {
  let v = map.get(key)
  if (v === undefined) {
    v = make()
    if (map.size >= CACHE_MAX) map.clear()
    map.set(key, v)
  }
  return v
}

const UNREAD = { readsAs: null } as const

/**
 * `text` read with `pattern`, exactly: date-fns's parse is lenient (`yyyy` takes "26" as the year
 * 26, `dd` takes "1"), so the date must be written back by the pattern as the text is, the case
 * of letters aside (`JAN`, `pm`). Else `01/03/26` in a `dd/MM/yyyy` file would be a call of the
 * year 26, imported and billed.
 */
function parsed(text: string, pattern: string, reference: Date): Reading {
  if (text === '') return UNREAD
  const d = parse(text, pattern, reference, patternOptions)
  if (!isValid(d)) return UNREAD
  const written = formatDate(d, pattern, patternOptions)
  return written.toLowerCase() === text.toLowerCase() ? d.toISOString() : { readsAs: written }
}

const SECONDS = /^\d{1,9}(?:\.\d{1,3})?$/
const MM_SS = /^(\d{1,7}):([0-5]\d)(\.\d{1,3})?$/
const HH_MM_SS = /^(\d{1,5}):([0-5]\d):([0-5]\d)(\.\d{1,3})?$/

/** Seconds as our `durationSeconds` text, or null. */
export function secondsOf(text: string, form: DurationForm): string | null {
  if (form === 'seconds') return SECONDS.test(text) ? text : null
  const m = (form === 'mm:ss' ? MM_SS : HH_MM_SS).exec(text)
  if (!m) return null
  const whole = form === 'mm:ss' ? Number(m[1]) * 60 + Number(m[2]) : Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])
  const fraction = m[form === 'mm:ss' ? 3 : 4] ?? ''
  return `${whole}${fraction}`
}

function fails(line: number, header: string, reason: string): never {
  rowFails(line, `column ${quoted(header)} ${reason}`)
}

function rowFails(line: number, reason: string): never {
  throw new BillingError('invalid_field', `line ${line}: ${reason}`, `Correct line ${line} and send the whole file again: nothing of it was kept.`)
}

/**
 * An importer's error about one of our columns, naming the carrier's column as well: `line 4:
 * callClass "x" …` becomes `line 4: callClass (column "Type") "x" …`.
 */
export function carrierColumnsNamed(error: unknown, format: UsageFormat): unknown {
  if (!(error instanceof BillingError)) return error
  const m = /^line (\d+): (\w+)/.exec(error.message)
  const theirs = m ? format.columns[m[2]] : undefined
  if (!m || theirs === undefined) return error
  const named = typeof theirs === 'string' ? quoted(theirs) : theirs.map(quoted).join(' and ')
  return new BillingError(error.code, error.message.replace(`: ${m[2]}`, `: ${m[2]} (column ${named})`), error.hint)
}
