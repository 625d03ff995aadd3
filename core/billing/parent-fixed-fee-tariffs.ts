import type { FixedFeeTariff, FixedFeeTariffDetail } from '../fields/entity.js'
import type { FixedFeeTariffs, TariffRows } from './fixed-fee-pricing.js'

/**
 * Parent fixed fee tariffs (contract 17.7): a tariff's `parentFixedFeeTariff` (an ID) lends every
 * fixed fee price the child lacks: a feature none of the child's rows matches on a date (by its
 * types and the row's dates) is priced by the nearest ancestor with a row that does (`priceOn`).
 * Resolved once per batch into each tariff's row lists, own first, so pricing a feature reads
 * one entry as before: a tree costs a few lookups per feature, no walk of it.
 */
export function withParentRows(tariffs: readonly Pick<FixedFeeTariff, 'id' | 'name' | 'parentFixedFeeTariff'>[], rows: readonly FixedFeeTariffDetail[]): FixedFeeTariffs {
  const own = new Map<string, FixedFeeTariffDetail[]>(tariffs.map((t) => [t.id, []]))
  for (const r of rows) own.get(String(r.fixedFeeTariffID))?.push(r)
  const byID = new Map(tariffs.map((t) => [t.id, t]))
  const resolved = new Map<string, TariffRows>()
  const resolving = new Set<string>()

  const resolve = (id: string): TariffRows => {
    const done = resolved.get(id)
    if (done) return done
    const mine = own.get(id) ?? []
    const parentID = String(byID.get(id)?.parentFixedFeeTariff ?? '').trim()
    // Writes refuse cycles; one stored before that rule lends nothing past the loop.
    let lent: TariffRows = []
    if (parentID !== '' && byID.has(parentID) && !resolving.has(parentID)) {
      resolving.add(id)
      lent = resolve(parentID)
      resolving.delete(id)
    }
    // Kept apart rather than merged: any of the child's rows that matches beats every one it borrows.
    const out = mine.length === 0 ? lent : [mine, ...lent]
    resolved.set(id, out)
    return out
  }

  return new Map(tariffs.map((t) => [t.name, resolve(t.id)]))
}
