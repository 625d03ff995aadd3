import { add, sum, ZERO, type Money } from '../money/money.js'
import type { LedgerRow } from '../ports/ledger.js'
import { roleOf } from './ledger-row.js'

/*
 * What credit notes gave back of a slot's approved rows, as reconcile weighs it (contract 15.3:
 * never given back twice): a credit note stands as given until the engine corrects its period
 * after it, and a correction gives back only what credit notes left.
 */

/** What credit notes gave back of approved rows, by the rows' VAT rate (as `byRate` groups them). */
export function creditedByRate(approved: readonly LedgerRow[]): Map<string | null | undefined, { net: Money; vat: Money }> {
  const out = new Map<string | null | undefined, { net: Money; vat: Money }>()
  for (const r of approved) {
    for (const c of r.credits ?? []) {
      const t = out.get(r.VATRate) ?? { net: ZERO, vat: ZERO }
      out.set(r.VATRate, { net: add(t.net, c.net), vat: add(t.vat, c.vat) })
    }
  }
  return out
}

/** What stands of approved rows: their net less all that credit notes gave back of them. */
export const standing = (approved: readonly LedgerRow[]): Money => add(sum(approved.map((r) => r.amount)), sum(approved.flatMap((r) => (r.credits ?? []).map((c) => c.net))))

/**
 * What credit notes gave back of approved rows before the engine's latest correction of their
 * period (a refund, an adjustment, a charge again: a later revision), which gave back only the
 * rest and so took them in; none when the period was never corrected. A credit note after it
 * stands on its own. Transaction IDs grow as rows are written (contract 2).
 */
export function absorbedCredits(approved: readonly LedgerRow[]): Money {
  let latest = -1n
  for (const r of approved) if (r.revision > 0 || roleOf(r.transactionType) !== 'charge') latest = BigInt(r.id) > latest ? BigInt(r.id) : latest
  if (latest < 0n) return ZERO
  return sum(approved.flatMap((r) => (r.credits ?? []).filter((c) => BigInt(c.id) < latest).map((c) => c.net)))
}
