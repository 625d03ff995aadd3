import { addDays } from '../dates/date-only.js'
import { BillingError, notFound } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import { recordChanges, type Change } from '../history/record-change.js'
import type { PlatformContext } from '../platform.js'
import type { ResourceRepository } from '../ports/resource-repository.js'
import { increaseRecord, type IncreaseRequest } from './increase-request.js'
import { fieldsOf, tariffKinds, type TariffKind } from './increase-scopes.js'
import { pendingIncreaseOf, serializePending } from './pending-increase.js'
import { increaseRow } from './price-increase.js'

/** What the increase use cases need. */
export type IncreaseContext = Pick<PlatformContext, 'store' | 'clock'>

/**
 * applyIncrease: raises the prices of a tariff and of every one of its detail rows, in one
 * transaction, and records the increase on the tariff (`increaseOriginalID` = itself). With an
 * effective date after today (contract 17.5), prices change from that date: each detail it raises
 * ends the day before and a raised copy starts on it, and the tariff's own prices (which have no
 * dates) are kept as pending from the date (see `PendingIncrease`). Otherwise they change in
 * place at once, from today: a rate keeps its ID with the raised price, and the price it had is
 * kept for the days before as a copy that ends yesterday (see `keepBefore`); a rate that ended
 * before today is left alone. The tariff row is locked first, so concurrent increases of one
 * tariff apply one after the other. Not idempotent by itself: a retry raises again (an
 * `Idempotency-Key` makes a retry safe).
 */
export async function applyIncrease(ctx: IncreaseContext, kind: TariffKind, id: string, request: IncreaseRequest): Promise<Item> {
  const fields = fieldsOf(kind, request.scope)
  const today = ctx.clock.today()
  const from = request.effectiveDate > today ? request.effectiveDate : null
  return ctx.store.transaction(async (store) => {
    const tariffs = store.repository(kind)
    const tariff = await tariffs.getForUpdate(id)
    if (!tariff) throw notFound(tariffs.resource.singular, id)
    const pending = pendingIncreaseOf(tariff)
    if (pending) {
      throw new BillingError('state_not_allowed', `an increase of this tariff's own prices from ${pending.from} is pending`, `Apply another increase on or after ${pending.from}, once that one has taken effect.`)
    }
    const now = ctx.clock.now()
    const { details, ownerField } = tariffKinds[kind]
    const rates = store.repository(details)
    // Each detail changed or added is a change of its own (contract 12); the tariff's is the action's.
    const changed: Change[] = []
    for (const row of await rates.listIn(ownerField, [id])) {
      const raised = increaseRow(row, fields.details, request.percent)
      if (Object.keys(raised).length === 0) continue
      if (from === null && row.endDate !== null && row.endDate !== undefined && row.endDate < today) continue
      if (from === null && (row.startDate ?? '') < today) {
        changed.push(...(await keepBefore(rates, row, raised, today, now)))
      } else if (from === null || (row.startDate ?? '') >= from) {
        changed.push({ resource: rates.resource, action: 'update', before: row, after: (await rates.update(row.id, { ...raised, updatedStamp: now }))! })
      } else if (row.endDate === null || row.endDate === undefined || row.endDate >= from) {
        changed.push(...(await splitAt(rates, row, raised, from, now)))
      }
    }
    await recordChanges(store, ctx.clock, changed)
    const raised = increaseRow(tariff, fields.tariff, request.percent)
    const prices = from === null ? raised : Object.keys(raised).length ? { pendingIncrease: serializePending({ from, values: raised }) } : {}
    return (await tariffs.update(id, { ...prices, ...increaseRecord(id, request), updatedStamp: now }))!
  })
}

/**
 * A rate in force before today raised in place: it keeps its ID with the raised price from
 * today, and a copy at the price it had covers the days before, ending yesterday. Without the
 * copy its new price would be its price on every day it was ever in force: a run would refund the
 * periods already invoiced and charge them again at the new price, back to the feature's start,
 * and calls re-rated from before today would take it too (contract 17.5: charges take effect when
 * they say). Answers the two changes: the copy's create and the rate's update.
 */
async function keepBefore(rates: ResourceRepository, row: Item, raised: Values, today: string, now: string): Promise<Change[]> {
  const { id: _id, ...values } = row
  const kept = await rates.insert({ ...values, endDate: addDays(today as never, -1), createdStamp: now, updatedStamp: now })
  const updated = await rates.update(row.id, { ...raised, startDate: today, updatedStamp: now })
  return [
    { resource: rates.resource, action: 'create', before: null, after: kept },
    { resource: rates.resource, action: 'update', before: row, after: updated! },
  ]
}

/**
 * A rate in force before `from` and after it: it ends the day before, and a raised copy starts on
 * it. Answers the two changes: the rate's update and the copy's create.
 */
async function splitAt(rates: ResourceRepository, row: Item, raised: Values, from: string, now: string): Promise<Change[]> {
  const { id: _id, ...values } = row
  const ended = await rates.update(row.id, { endDate: addDays(from as never, -1), updatedStamp: now })
  const copy = await rates.insert({ ...values, ...raised, startDate: from, endDate: row.endDate ?? null, createdStamp: now, updatedStamp: now })
  return [
    { resource: rates.resource, action: 'update', before: row, after: ended! },
    { resource: rates.resource, action: 'create', before: null, after: copy },
  ]
}
