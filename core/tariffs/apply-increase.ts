import { addDays } from '../dates/date-only.js'
import { BillingError, notFound } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import { recordChanges, type Change } from '../history/record-change.js'
import { moneyToNumber } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { ResourceRepository } from '../ports/resource-repository.js'
import { increaseRecord, type IncreaseRequest } from './increase-request.js'
import { fieldsOf, tariffKinds, type TariffKind } from './increase-scopes.js'
import { earlierPricesOf, pendingIncreaseOf, serializeIncreases } from './pending-increase.js'
import { assertRaisable, increaseRow } from './price-increase.js'

/** What the increase use cases need. */
export type IncreaseContext = Pick<PlatformContext, 'store' | 'clock'>

/**
 * applyIncrease: raises the prices of a tariff and of every one of its detail rows, in one
 * transaction, and records the increase on the tariff (`increaseOriginalID` = itself). With an
 * effective date after today (contract 17.5), prices change from that date: each detail it raises
 * ends the day before and a raised copy starts on it, and the tariff's own prices (which have no
 * dates) are kept as pending from the date (see `PendingIncrease`). Otherwise they change in
 * place at once, from today: a rate keeps its ID with the raised price, and the price it had is
 * kept for the days before as a copy that ends yesterday (`splitAt`), the tariff's own replaced
 * prices as earlier prices until today (`EarlierPrices`); a rate that ended before
 * today is left alone. A price it would raise beyond what the API accepts refuses the whole
 * increase (400504) before anything is written. The tariff row is locked first, so concurrent
 * increases of one tariff apply one after the other. Not idempotent by itself: a retry raises
 * again (an `Idempotency-Key` makes a retry safe).
 */
export async function applyIncrease(ctx: IncreaseContext, kind: TariffKind, id: string, request: IncreaseRequest): Promise<Item> {
  const fields = fieldsOf(kind, request.scope)
  const today = ctx.clock.today()
  const from = request.effectiveDate > today ? request.effectiveDate : null
  return ctx.store.transaction(async (store) => {
    const tariffs = store.repository(kind)
    const tariff = await tariffs.getForUpdate(id)
    if (!tariff) throw notFound(tariffs.resource.singular, id)
    const { details, ownerField } = tariffKinds[kind]
    const rates = store.repository(details)
    // Prices change from `at`: rates ended before it are left alone, rates from it on raised as
    // they stand, and a rate in force across it split there (`splitAt`).
    const at = from ?? today
    const raises = (await rates.listIn(ownerField, [id]))
      .filter((row) => row.endDate === null || row.endDate === undefined || row.endDate >= at)
      .map((row) => ({ row, raised: increaseRow(row, fields.details, request.percent) }))
      .filter(({ raised }) => Object.keys(raised).length > 0)
    const raised = increaseRow(tariff, fields.tariff, request.percent)
    // Every raised price checked before anything is written (contract 2: a parameter's value, 400504, before state, 400502).
    assertRaisable(tariffs.resource.singular, tariff, raised)
    for (const r of raises) assertRaisable(rates.resource.singular, r.row, r.raised)
    const pending = pendingIncreaseOf(tariff)
    if (pending) {
      throw new BillingError('state_not_allowed', `an increase of this tariff's own prices from ${pending.from} is pending`, `Apply another increase on or after ${pending.from}, once that one has taken effect.`)
    }
    const now = ctx.clock.now()
    // Each detail changed or added is a change of its own (contract 12); the tariff's is the action's.
    const changed: Change[] = []
    for (const { row, raised } of raises) {
      if ((row.startDate ?? '') >= at) {
        changed.push({ resource: rates.resource, action: 'update', before: row, after: (await rates.update(row.id, { ...raised, updatedStamp: now }))! })
      } else changed.push(...(await splitAt(rates, row, raised, at, from === null, now)))
    }
    await recordChanges(store, ctx.clock, changed)
    const prices = !Object.keys(raised).length
      ? {}
      : from === null
        ? // Changed in place from today; the prices replaced stay for calls before it, as a dated increase's do (a late file).
          { ...raised, pendingIncrease: serializeIncreases(null, [...earlierPricesOf(tariff), { until: today, values: replacedBy(tariff, raised) }]) }
        : { pendingIncrease: serializeIncreases({ from, percent: moneyToNumber(request.percent), scope: request.scope, values: raised }, earlierPricesOf(tariff)) }
    return (await tariffs.update(id, { ...prices, ...increaseRecord(id, request), updatedStamp: now }))!
  })
}

/** The values `raised` replaces, as they stood (null where unset: then a parent's applies). */
const replacedBy = (tariff: Item, raised: Values): Values => Object.fromEntries(Object.keys(raised).map((k) => [k, tariff[k] ?? null]))

/**
 * A rate in force before `at` and after it: its price until the day before, the raised one from
 * `at`. Without the split its new price would be its price on every day it was ever in force: a
 * run would refund the periods already invoiced and charge them again, back to the feature's
 * start, and calls rated later from before `at` would take it too (contract 17.5: charges take
 * effect when they say). Which row keeps the rate's ID: from a later date the rate ends and a
 * raised copy starts; raised in place (today), the rate keeps its ID with the raised price and a
 * copy at its old price covers the days before. Answers both changes, the ID's row first when it ends.
 */
async function splitAt(rates: ResourceRepository, row: Item, raised: Values, at: string, inPlace: boolean, now: string): Promise<Change[]> {
  const { id: _id, ...values } = row
  const before = { endDate: addDays(at as never, -1) }
  const after = { ...raised, startDate: at }
  if (inPlace) {
    const kept = await rates.insert({ ...values, ...before, createdStamp: now, updatedStamp: now })
    const updated = await rates.update(row.id, { ...after, updatedStamp: now })
    return [
      { resource: rates.resource, action: 'create', before: null, after: kept },
      { resource: rates.resource, action: 'update', before: row, after: updated! },
    ]
  }
  const ended = await rates.update(row.id, { ...before, updatedStamp: now })
  const copy = await rates.insert({ ...values, ...after, endDate: row.endDate ?? null, createdStamp: now, updatedStamp: now })
  return [
    { resource: rates.resource, action: 'update', before: row, after: ended! },
    { resource: rates.resource, action: 'create', before: null, after: copy },
  ]
}
