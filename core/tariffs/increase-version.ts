import { BillingError, notFound } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import { recordChanges, type Change } from '../history/record-change.js'
import { moneyToNumber } from '../money/money.js'
import type { ResourceRepository } from '../ports/resource-repository.js'
import type { IncreaseContext } from './apply-increase.js'
import { increaseRecord, type IncreaseRequest } from './increase-request.js'
import { fieldsOf, tariffKinds, type TariffKind } from './increase-scopes.js'
import { lentRows } from './lent-rates.js'
import { earlierPricesOf, pendingIncreaseOf, serializeIncreases, type EarlierPrices } from './pending-increase.js'
import { assertRaisable, increaseRow } from './price-increase.js'
import { isSingleRate } from './single-rate.js'
import { freeName, versionName } from './version-name.js'

/**
 * createIncreaseVersion: a copy of the tariff and all its detail rows under a new name
 * ("<name> +3.5%", then " (2)", ...), prices raised, the increase recorded with
 * `increaseOriginalID` = the source; the source is unchanged. Idempotent: when a version with
 * the same source, percentage and scope exists (whatever its effective date or later edits),
 * that one is returned instead. Racing calls are serialised by a lock per kind taken before
 * the lookup, so they agree on one copy (and on free names); the source row is locked too,
 * so the copy never mixes prices from before and after a concurrent applyIncrease. A child call
 * tariff's prices include those its ancestors lend it (contract 17.7): the copy holds them raised
 * as its own (`lentPrices`), so it prices every call as the source does, raised.
 */
export async function createIncreaseVersion(
  ctx: IncreaseContext,
  kind: TariffKind,
  id: string,
  request: IncreaseRequest,
): Promise<Item> {
  const fields = fieldsOf(kind, request.scope)
  return ctx.store.transaction(async (store) => {
    await store.lock(`${kind}:createIncreaseVersion`)
    const tariffs = store.repository(kind)
    const source = await tariffs.getForUpdate(id)
    if (!source) throw notFound(tariffs.resource.singular, id)
    const existing = await findVersion(tariffs, id, request)
    if (existing) return existing

    const now = ctx.clock.now()
    const stamps = { createdStamp: now, updatedStamp: now }
    const { details, ownerField } = tariffKinds[kind]
    const rates = store.repository(details)
    // Prices the source raises from a later date are raised in the copy too (contract 17.5).
    const pending = pendingIncreaseOf(source)
    const pendingRaised = pending ? increaseRow({ id, ...pending.values }, fields.tariff, request.percent) : {}
    // Its prices before an increase already applied are raised too, as its dated details are.
    const own = await rates.listIn(ownerField, [id])
    const lent = kind === 'tariffs' ? await lentPrices(tariffs, rates, ownerField, source, own, fields.tariff) : { base: {}, earlier: [], details: [] }
    // Its prices before an increase already applied are raised too, as its dated details are, and
    // so are those of the prices its parents lend it: the fields differ, so the dates merge in order.
    const earlier = [...earlierPricesOf(source), ...lent.earlier]
      .sort((a, b) => (a.until < b.until ? -1 : a.until > b.until ? 1 : 0))
      .map((e) => ({ ...e, values: { ...e.values, ...increaseRow({ id, ...e.values }, fields.tariff, request.percent) } }))
    const raised = { ...increaseRow({ id, ...lent.base }, fields.tariff, request.percent), ...increaseRow(source, fields.tariff, request.percent) }
    const rows = [...own, ...lent.details].map((row) => ({ row, raised: increaseRow(row, fields.details, request.percent) }))
    // Every raised price checked before anything is written: the copy is all or nothing.
    assertRaisable(tariffs.resource.singular, source, raised)
    assertRaisable(tariffs.resource.singular, source, pendingRaised)
    for (const r of rows) assertRaisable(rates.resource.singular, r.row, r.raised)
    const copy = await tariffs.insert({
      ...copyOf(source),
      pendingIncrease: serializeIncreases(pending ? { ...pending, values: { ...pending.values, ...pendingRaised } } : null, earlier),
      ...raised,
      ...increaseRecord(id, request),
      name: await freeName(store, kind, versionName(String(source.name), request.percent)),
      ...stamps,
    })
    // The copy and its details are creates of their own (contract 12), recorded with the copy.
    const created: Change[] = [{ resource: tariffs.resource, action: 'create', before: null, after: copy }]
    for (const { row, raised } of rows) {
      const detail = await rates.insert({ ...copyOf(row), ...raised, [ownerField]: copy.id, ...stamps })
      created.push({ resource: rates.resource, action: 'create', before: null, after: detail })
    }
    await recordChanges(store, ctx.clock, created)
    return copy
  })
}

/** An earlier copy of `sourceID` with the same percentage and scope (not the source itself,
 * which records itself as its original after an in-place increase). */
async function findVersion(tariffs: ResourceRepository, sourceID: string, request: IncreaseRequest): Promise<Item | undefined> {
  const rows = await tariffs.list({
    where: [
      { op: 'eq', column: 'increaseOriginalID', value: sourceID },
      { op: 'eq', column: 'increaseScope', value: request.scope },
      { op: 'eq', column: 'increasePercent', value: moneyToNumber(request.percent) },
    ],
    limit: 2,
  })
  return rows.find((row) => row.id !== sourceID)
}

/**
 * What a call tariff's ancestors lend it (contract 17.7), to be held by its copy: the nearest
 * one's value of each of `prices` it leaves unset, and the rows that price the calls none of its
 * own rows matches (`lentRows`). Nothing when it has no parent.
 */
async function lentPrices(tariffs: ResourceRepository, rates: ResourceRepository, ownerField: string, source: Item, own: readonly Item[], prices: readonly string[]) {
  const base: Values = {}
  // The lender's prices before its applied increases, for the fields it lends: late calls before those dates.
  const earlier: EarlierPrices[] = []
  const layers: Item[][] = []
  let singleRate = source.singleRate
  // Writes refuse cycles; one stored before that rule lends nothing past the loop, as in rating.
  const seen = new Set([source.id])
  for (let at = parentID(source); at !== null && !seen.has(at); ) {
    const parent = await tariffs.get(at)
    if (!parent) break
    seen.add(at)
    const lends = prices.filter((name) => (source[name] ?? null) === null && (base[name] ?? null) === null && (parent[name] ?? null) !== null)
    for (const name of lends) base[name] = parent[name]
    const pending = pendingIncreaseOf(parent)
    // A copy holds one price a field from each date; the parent's pending raise of a price it lends would need a second.
    if (pending && lends.some((name) => name in pending.values)) {
      throw new BillingError(
        'state_not_allowed',
        `an increase from ${pending.from} of prices the parent tariff "${String(parent.name)}" lends is pending`,
        `Create the version on or after ${pending.from}, once that increase has taken effect.`,
      )
    }
    for (const e of earlierPricesOf(parent)) {
      const values = Object.fromEntries(lends.filter((name) => name in e.values).map((name) => [name, e.values[name]]))
      if (Object.keys(values).length) earlier.push({ until: e.until, values })
    }
    singleRate ??= parent.singleRate
    layers.push(await rates.listIn(ownerField, [at]))
    at = parentID(parent)
  }
  const single = isSingleRate({ singleRate: typeof singleRate === 'string' ? singleRate : null })
  return { base, earlier, details: lentRows(own, layers, single) }
}

/** The ID of the tariff a call tariff names as its parent, trimmed as rating reads it; null when none. */
function parentID(row: Item): string | null {
  const p = row.parentTariff
  const id = p === null || p === undefined ? '' : String(p).trim()
  return id === '' ? null : id
}

/** A stored row's values without its identity: what a copy starts from. */
function copyOf(row: Item): Values {
  const { id: _id, ...values } = row
  return { ...values }
}
