import { roleOf, transactionTypeNames } from '../billing/ledger-row.js'
import { add, neg, sum, ZERO, type Money } from '../money/money.js'
import type { LedgerRow } from '../ports/ledger.js'

/**
 * What the billing engine has given back of each of a feature's charge rows: its refunds and
 * adjustment refunds (approved or still to be invoiced) of a period, taken by the period's
 * charges oldest first, each up to what credit notes left of it. A credit note then takes only
 * the rest of a line (contract 15.3: never beyond its amount), so a charge is never given back
 * twice, once refunded and once credited; reconcile does the same the other way round.
 *
 * A period is the rows of one kind and series whose dates overlap, directly or through others
 * (a refund spans the rows it refunds; a re-priced period's pieces lie within it). Discounts are
 * parts of their charge's price, not refunds: they neither take nor give here.
 */
export function refundedOf(rows: readonly LedgerRow[]): Map<string, Money> {
  const out = new Map<string, Money>()
  for (const period of periods(rows)) {
    let pool = ZERO
    for (const r of period) if (givesBack(r)) pool = add(pool, neg(r.amount))
    if (pool <= 0n) continue
    const charges = period.filter((r) => !givesBack(r) && r.transactionType !== transactionTypeNames.discount && r.amount > 0n)
    for (const r of charges.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))) {
      const left = add(r.amount, sum((r.credits ?? []).map((c) => c.net)))
      const take = left < pool ? left : pool
      if (take <= 0n) continue
      out.set(r.id, take)
      pool = (pool - take) as Money
      if (pool === 0n) break
    }
  }
  return out
}

const givesBack = (r: LedgerRow): boolean => {
  const role = roleOf(r.transactionType)
  return role === 'refund' || role === 'adjustment_refund'
}

/** The rows grouped into periods: by kind and series, then by dates overlapping. */
function periods(rows: readonly LedgerRow[]): LedgerRow[][] {
  const bySeries = new Map<string, LedgerRow[]>()
  for (const r of rows) {
    const key = `${r.kind}|${r.series}`
    const list = bySeries.get(key)
    if (list) list.push(r)
    else bySeries.set(key, [r])
  }
  const out: LedgerRow[][] = []
  for (const list of bySeries.values()) {
    let current: LedgerRow[] = []
    let end = ''
    for (const r of [...list].sort((a, b) => (a.periodStart < b.periodStart ? -1 : a.periodStart > b.periodStart ? 1 : 0))) {
      if (current.length && r.periodStart > end) {
        out.push(current)
        current = []
      }
      current.push(r)
      if (r.periodEnd > end || current.length === 1) end = r.periodEnd
    }
    if (current.length) out.push(current)
  }
  return out
}
