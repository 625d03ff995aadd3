import type { FixedFeeTariff, FixedFeeTariffDetail } from '../fields/entity.js'
import type { FixedFeeTariffs } from './fixed-fee-pricing.js'

/**
 * Parent fixed fee tariffs (contract 17.7): a tariff's `parentFixedFeeTariff` (an ID) lends every
 * fixed fee detail the child lacks, found on the nearest ancestor. A detail is the price of the
 * feature, number, service and transaction types it matches: a child with a row for the same
 * types has that price, one without takes its parent's row, and the most specific row then wins
 * as it would among the child's own (`priceOn`). Resolved once per batch into plain row lists, so
 * pricing a feature reads one list as before.
 */
export function withParentRows(tariffs: readonly Pick<FixedFeeTariff, 'id' | 'name' | 'parentFixedFeeTariff'>[], rows: readonly FixedFeeTariffDetail[]): FixedFeeTariffs {
  const own = new Map<string, FixedFeeTariffDetail[]>(tariffs.map((t) => [t.id, []]))
  for (const r of rows) own.get(String(r.fixedFeeTariffID))?.push(r)
  const byID = new Map(tariffs.map((t) => [t.id, t]))
  const resolved = new Map<string, readonly FixedFeeTariffDetail[]>()
  const resolving = new Set<string>()

  const resolve = (id: string): readonly FixedFeeTariffDetail[] => {
    const done = resolved.get(id)
    if (done) return done
    const mine = own.get(id) ?? []
    const parentID = String(byID.get(id)?.parentFixedFeeTariff ?? '').trim()
    // Writes refuse cycles; one stored before that rule lends nothing past the loop.
    if (parentID === '' || !byID.has(parentID) || resolving.has(parentID)) {
      resolved.set(id, mine)
      return mine
    }
    resolving.add(id)
    const merged = lentRows(mine, resolve(parentID))
    resolving.delete(id)
    resolved.set(id, merged)
    return merged
  }

  return new Map(tariffs.map((t) => [t.name, resolve(t.id)]))
}

/** The types a row matches, each list in a stable order: two rows with the same key price the same features. */
const keyOf = (r: FixedFeeTariffDetail): string =>
  [r.featureTypes, r.numberTypes, r.serviceTypes, r.transactionTypes].map((list) => [...(list ?? [])].sort().join('\u0001')).join('\u0000')

/** The child's rows, then each of the parent's for types the child has no row for. */
function lentRows(own: readonly FixedFeeTariffDetail[], parents: readonly FixedFeeTariffDetail[]): readonly FixedFeeTariffDetail[] {
  if (parents.length === 0) return own
  const have = new Set(own.map(keyOf))
  const lent = parents.filter((r) => !have.has(keyOf(r)))
  return lent.length === 0 ? own : [...own, ...lent]
}
