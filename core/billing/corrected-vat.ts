import { add, ZERO, type Money } from '../money/money.js'
import type { LedgerRow } from '../ports/ledger.js'

// A refund or adjustment carries the VAT of the approved rows it corrects, never the feature's rate
// of the moment: a period refunded in full then nets to nothing, VAT included (reconcile.ts).

/** A slot's approved rows summed by the VAT rate they were written at. */
export type RateTotals = Map<string | null | undefined, { net: Money; vat: Money; cost: Money }>

/**
 * The approved rows of a slot summed by VAT rate, a rate whose rows net to nothing (net and VAT)
 * left out; their cost, which rides with the charge and is never corrected on its own, goes to
 * the first rate left (nowhere when none is).
 */
export function byRate(approved: readonly LedgerRow[]): RateTotals {
  const out: RateTotals = new Map()
  for (const r of approved) {
    const t = out.get(r.VATRate) ?? { net: ZERO, vat: ZERO, cost: ZERO }
    out.set(r.VATRate, { net: add(t.net, r.amount), vat: r.VATAmount === undefined ? t.vat : add(t.vat, r.VATAmount), cost: add(t.cost, r.carrierCost) })
  }
  let stray = ZERO
  for (const [rate, t] of out) {
    if (t.net !== 0n || t.vat !== 0n) continue
    stray = add(stray, t.cost)
    out.delete(rate)
  }
  const [first] = out
  if (first && stray !== 0n) out.set(first[0], { ...first[1], cost: add(first[1].cost, stray) })
  return out
}

/**
 * The VAT rate an adjustment of approved rows takes: theirs; where they still carry amounts at
 * more than one (rows refunded at the feature's rate before corrections kept theirs), the last
 * row's. Undefined: the feature's rate now (nothing approved is left to correct, or rows made
 * without VAT).
 */
export function correctedRate(approved: readonly LedgerRow[]): string | null | undefined {
  const rates = byRate(approved)
  if (rates.size === 0) return undefined
  if (rates.size === 1) return rates.keys().next().value
  return approved.findLast((r) => rates.has(r.VATRate))!.VATRate
}
