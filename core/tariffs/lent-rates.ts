import { addDays, type DateOnly } from '../dates/date-only.js'
import type { Item } from '../fields/item.js'
import { timeBands } from '../presets/engine-lists.js'

/** A span of days, either end open (null). */
interface Span {
  readonly from: DateOnly | null
  readonly to: DateOnly | null
}

/** One lent row as the copy holds it: for one time band (or `any`) over one span, grown as it is built. */
interface Piece {
  readonly row: Item
  readonly timeBand: string
  readonly from: DateOnly | null
  to: DateOnly | null
}

const key = (v: unknown): string => (typeof v === 'string' ? v.trim().toLowerCase() : '')
const dateOf = (v: unknown): DateOnly | null => (typeof v === 'string' && v !== '' ? (v as DateOnly) : null)
const CALL_BANDS = timeBands.filter((b) => b !== 'any')

/**
 * The rows a copy of a child call tariff holds so that, on its own, it prices what the child's
 * ancestors lend it (contract 17.7), the child's own rows (`own`) still deciding first.
 * `layers` are the ancestors' details, nearest first. Appending them as they are would not do:
 * a parent's `day` row would beat the child's own `any` row. So each charge band is cut into
 * time bands and spans of days (at every row's start and end), and each cut no own row matches
 * gets the row rating picks there (as `findRate`: the nearest ancestor with a matching row, an
 * exact band before `any`, then the latest start, then the first given), for that span. Cuts of
 * one row meeting in time are joined, and all three time bands taken by one row are one `any`.
 */
export function lentRows(own: readonly Item[], layers: readonly (readonly Item[])[], single: boolean): Item[] {
  const out: Item[] = []
  const bands = new Set(layers.flatMap((rows) => rows.map((r) => key(r.chargeBand))))
  for (const band of bands) {
    const mine = own.filter((r) => key(r.chargeBand) === band)
    const theirs = layers.map((rows) => rows.filter((r) => key(r.chargeBand) === band))
    for (const p of pieces(mine, theirs, single)) out.push({ ...p.row, timeBand: p.timeBand, startDate: p.from, endDate: p.to })
  }
  return out
}

/** The lent pieces of one charge band, in order of their spans. */
function pieces(own: readonly Item[], layers: readonly (readonly Item[])[], single: boolean): Piece[] {
  const out: Piece[] = []
  let open = new Map<string, Piece>()
  for (const span of spans([...own, ...layers.flat()])) {
    const picked = (single ? ['any'] : CALL_BANDS).map((b) => [b, best(own, b, span, single) ? null : lent(layers, b, span, single)] as const)
    // One row for every time band is one `any` row (on a single-rate tariff there is only `any`).
    const whole = picked.every(([, row]) => row !== null && row === picked[0][1])
    const now = new Map<string, Piece>()
    for (const [timeBand, row] of whole ? [['any', picked[0][1]] as const] : picked) {
      if (row === null) continue
      let piece = open.get(timeBand)
      if (piece?.row === row) piece.to = span.to
      else out.push((piece = { row, timeBand: single ? String(row.timeBand) : timeBand, ...span }))
      now.set(timeBand, piece)
    }
    open = now
  }
  return out
}

/** The spans between every start and every end of `rows`, in order, covering all time. */
function spans(rows: readonly Item[]): Span[] {
  const cuts = new Set<DateOnly>()
  for (const r of rows) {
    const start = dateOf(r.startDate)
    const end = dateOf(r.endDate)
    if (start) cuts.add(start)
    if (end) cuts.add(addDays(end, 1))
  }
  const starts = [null, ...[...cuts].sort()]
  return starts.map((from, i) => ({ from, to: i + 1 < starts.length ? addDays(starts[i + 1]!, -1) : null }))
}

/** The nearest layer's pick for calls in `timeBand` over `span`, or null when none has a row. */
function lent(layers: readonly (readonly Item[])[], timeBand: string, span: Span, single: boolean): Item | null {
  for (const rows of layers) {
    const row = best(rows, timeBand, span, single)
    if (row) return row
  }
  return null
}

/** The row of `rows` rating picks for calls in `timeBand` over `span` (which no row's dates cut). */
function best(rows: readonly Item[], timeBand: string, span: Span, single: boolean): Item | null {
  let found: Item | null = null
  let foundScore = -1
  for (const r of rows) {
    const score = bandScore(key(r.timeBand), timeBand, single)
    if (score < 0 || !covers(r, span)) continue
    if (score > foundScore || (score === foundScore && String(r.startDate ?? '') > String(found?.startDate ?? ''))) {
      found = r
      foundScore = score
    }
  }
  return found
}

/** As rating scores a row's time band for a call's: 2 exact, 1 `any`, 0 another band of a single-rate tariff, −1 none. */
function bandScore(row: string, call: string, single: boolean): number {
  if (!(timeBands as readonly string[]).includes(row)) return -1
  if (row === 'any') return single ? 2 : 1
  if (row === call) return 2
  return single ? 0 : -1
}

/** Whether the row is in force over the span (a span lies wholly inside or outside each row's dates). */
function covers(r: Item, span: Span): boolean {
  const start = dateOf(r.startDate)
  const end = dateOf(r.endDate)
  return (start === null || (span.from !== null && start <= span.from)) && (end === null || (span.to !== null && span.to <= end))
}
