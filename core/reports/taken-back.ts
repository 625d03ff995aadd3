import { roleOf } from '../billing/ledger-row.js'
import { mulRatioRound, ZERO, type Money } from '../money/money.js'
import type { CorrectedRow } from '../ports/books.js'

/** An exact fraction of money units, `n / d` with `d` above zero. */
export interface Ratio {
  readonly n: bigint
  readonly d: bigint
}

/** A row of a charge's period that earns (a charge, discount or adjustment) and the net taken back of it so far. */
export interface Standing {
  readonly row: CorrectedRow
  /** Net credit note lines and refunds have taken of it (negative, as they store it), exactly. */
  taken: Ratio
}

export const NONE: Ratio = { n: 0n, d: 1n }

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b]
  while (y) [x, y] = [y, x % y]
  return x
}
const ratio = (n: bigint, d: bigint): Ratio => {
  const sign = d < 0n ? -1n : 1n
  const g = gcd(n, d) || 1n
  return { n: (sign * n) / g, d: (sign * d) / g }
}
export const plus = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d + b.n * a.d, a.d * b.d)
export const asRatio = (m: Money): Ratio => ({ n: m, d: 1n })

/** IDs are decimal digits without leading zeros: the shorter is the smaller, equal lengths compare as text. */
const compareIds = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)

/** A refund or adjustment refund: it takes back of the period's rows, it earns nothing of its own. */
export const takesBack = (transactionType: string): boolean => {
  const role = roleOf(transactionType)
  return role === 'refund' || role === 'adjustment_refund'
}

/**
 * What a row that earned `earned` on net `net` has given back once `taken` of its net is taken
 * back: earned × taken ÷ net, exactly and rounded once, half up to the penny. A clawback, by
 * refund or credit note line, is this after it less this before it, so the clawbacks of a row
 * taken back in full, in any pieces and any order, add up to exactly what it earned.
 */
export const givenBack = (earned: Money, taken: Ratio, net: Money): Money => (net === 0n || taken.n === 0n ? ZERO : mulRatioRound(earned, taken.n, taken.d * net, 2))

/**
 * The shares of a refund or adjustment refund of `amount` (negative) in the rows standing: each
 * row's net still standing (its net less what was taken of it) × amount ÷ the rows' in all,
 * exactly. A refund of all that stands takes each row's all. None where nothing stands.
 */
export function refundShares(standing: ReadonlyMap<string, Standing>, amount: Money): Map<string, Ratio> {
  const left = new Map([...standing].map(([id, s]) => [id, plus(asRatio(s.row.amount), s.taken)]))
  const all = [...left.values()].reduce(plus, NONE)
  const out = new Map<string, Ratio>()
  if (all.n === 0n) return out
  for (const [id, l] of left) out.set(id, ratio(amount * l.n * all.d, l.d * all.n))
  return out
}

/**
 * The rows of a charge's period (`CorrectedRow`s, each with the credit note lines on it) replayed
 * in ledger order: each charge, discount or adjustment stands from its place, each credit note
 * line takes its net of the row it credits, and each refund or adjustment refund its
 * `refundShares`. What stands after them all, by row ID.
 */
export function replayed(rows: readonly CorrectedRow[]): Map<string, Standing> {
  type Event = { at: string; row: CorrectedRow } | { at: string; of: string; amount: Money }
  const events: Event[] = []
  for (const row of rows) {
    events.push({ at: row.transactionID, row })
    for (const c of row.credits ?? []) events.push({ at: c.transactionID, of: row.transactionID, amount: c.amount })
  }
  events.sort((a, b) => compareIds(a.at, b.at))
  const standing = new Map<string, Standing>()
  for (const e of events) {
    if (!('row' in e)) {
      const s = standing.get(e.of)
      if (s) s.taken = plus(s.taken, asRatio(e.amount))
    } else if (takesBack(e.row.transactionType)) {
      for (const [id, share] of refundShares(standing, e.row.amount)) standing.get(id)!.taken = plus(standing.get(id)!.taken, share)
    } else standing.set(e.row.transactionID, { row: e.row, taken: NONE })
  }
  return standing
}
