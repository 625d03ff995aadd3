import { tariffOn, type RatingTariff, type TariffDetail } from './rating-tariff.js'

/**
 * Parent tariffs (contract 17.7): a call tariff's `parentTariff` (an ID) lends every rate the
 * child lacks: a call none of the child's details matches (by charge band, time band and date)
 * is priced by the nearest ancestor with one that does (`lent`); and every base field the child
 * leaves unset. Resolved once per import or billing run into plain tariffs, so rating a call
 * reads one tariff as before: a tree costs a few lookups per call, no walk of it.
 */
export function withParents(tariffs: ReadonlyMap<string, RatingTariff>): Map<string, RatingTariff> {
  const byID = new Map<string, RatingTariff>()
  for (const t of tariffs.values()) byID.set(t.id, t)
  const resolved = new Map<string, RatingTariff>()
  const resolving = new Set<string>()

  const resolve = (t: RatingTariff): RatingTariff => {
    const done = resolved.get(t.id)
    if (done) return done
    const parentID = parentOf(t)
    const parent = parentID === null ? undefined : byID.get(parentID)
    // Writes refuse cycles; one stored before that rule lends nothing past the loop.
    if (!parent || resolving.has(parent.id)) {
      resolved.set(t.id, t)
      return t
    }
    resolving.add(t.id)
    const merged = inherit(t, resolve(parent))
    resolving.delete(t.id)
    resolved.set(t.id, merged)
    return merged
  }

  const out = new Map<string, RatingTariff>()
  for (const [name, t] of tariffs) out.set(name, resolve(t))
  return out
}

/** The parent's ID a tariff names, trimmed; null when none. */
export function parentOf(t: Pick<RatingTariff, 'parentTariff'>): string | null {
  const p = t.parentTariff
  const id = p === null || p === undefined ? '' : String(p).trim()
  return id === '' ? null : id
}

/** Fields that are the tariff's own identity, never lent. */
const OWN = new Set(['id', 'name', 'details', 'raised', 'parentTariff', 'pendingIncrease'])

/** The child with the (already resolved) parent's fields and rates where it has none. */
function inherit(child: RatingTariff, parent: RatingTariff): RatingTariff {
  const out: Record<string, unknown> = { ...child }
  for (const [k, v] of Object.entries(parent)) {
    if (OWN.has(k)) continue
    if (out[k] === null || out[k] === undefined) out[k] = v
  }
  out.lent = lentDetails(parent)
  // Prices change on every date either's do: from each, the child's prices then, with what it
  // lacks from its parent's then (a raise of one keeps the other's prices in force that day).
  const dates = [...new Set([...(child.raised ?? []), ...(parent.raised ?? [])].map((r) => r.from))].sort()
  out.raised = dates.length === 0 ? undefined : dates.map((from) => ({ from, tariff: inherit({ ...tariffOn(child, from), raised: undefined }, { ...tariffOn(parent, from), raised: undefined }) }))
  return out as unknown as RatingTariff
}

/**
 * What a child borrows: its parent's own details, then those the parent borrows. Kept apart
 * rather than merged into the child's, since any of the child's rows that matches a call
 * (by band and date) beats every row of its parent, whatever their time bands.
 */
function lentDetails(parent: RatingTariff): readonly (readonly TariffDetail[])[] {
  const further = parent.lent ?? []
  return parent.details.length === 0 ? further : [parent.details, ...further]
}
