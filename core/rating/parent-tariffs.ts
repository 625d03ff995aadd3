import type { RatingTariff, TariffDetail } from './rating-tariff.js'

/**
 * Parent tariffs (contract 17.7): a call tariff's `parentTariff` (an ID) lends every rate the
 * child lacks, a detail for a charge band and time band found on the nearest ancestor, and every
 * base field the child leaves unset. Resolved once per import or billing run into plain tariffs,
 * so rating a call reads one tariff as before: a tree costs nothing per call.
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
  out.details = lentDetails(child.details, parent.details)
  // A raise of the child's own prices keeps its parent's lent rates; a raise of the parent's
  // (when the child has none) raises what the child inherits from the same date.
  if (child.raised) out.raised = { from: child.raised.from, tariff: inherit({ ...child.raised.tariff, raised: undefined }, parent) }
  else if (parent.raised) out.raised = { from: parent.raised.from, tariff: inherit({ ...child, raised: undefined }, parent.raised.tariff) }
  return out as unknown as RatingTariff
}

const keyOf = (d: TariffDetail): string => `${(d.chargeBand ?? '').trim().toLowerCase()}\u0000${(d.timeBand ?? '').trim().toLowerCase()}`

/** The child's details, then each of the parent's for a charge band and time band the child has no row for. */
function lentDetails(own: readonly TariffDetail[], parents: readonly TariffDetail[]): readonly TariffDetail[] {
  if (parents.length === 0) return own
  const have = new Set(own.map(keyOf))
  const lent = parents.filter((d) => !have.has(keyOf(d)))
  return lent.length === 0 ? own : [...own, ...lent]
}
