import { notFound } from '../errors.js'
import type { Item } from '../fields/item.js'
import type { PlatformContext } from '../platform.js'
import { increaseRecord, type IncreaseRequest } from './increase-request.js'
import { fieldsOf, tariffKinds, type TariffKind } from './increase-scopes.js'
import { increaseRow } from './price-increase.js'

/** What the increase use cases need. */
export type IncreaseContext = Pick<PlatformContext, 'store' | 'clock'>

/**
 * applyIncrease: raises the prices of a tariff and of every one of its detail rows in place, in
 * one transaction, and records the increase on the tariff (`increaseOriginalID` = itself). The
 * tariff row is locked first, so concurrent increases of one tariff apply one after the other.
 * Not idempotent by itself: a retry raises again (an `Idempotency-Key` makes a retry safe).
 */
export async function applyIncrease(ctx: IncreaseContext, kind: TariffKind, id: string, request: IncreaseRequest): Promise<Item> {
  const fields = fieldsOf(kind, request.scope)
  return ctx.store.transaction(async (store) => {
    const tariffs = store.repository(kind)
    const tariff = await tariffs.getForUpdate(id)
    if (!tariff) throw notFound(tariffs.resource.singular, id)
    const now = ctx.clock.now()
    const { details, ownerField } = tariffKinds[kind]
    const rates = store.repository(details)
    for (const row of await rates.listIn(ownerField, [id])) {
      const raised = increaseRow(row, fields.details, request.percent)
      if (Object.keys(raised).length > 0) await rates.update(row.id, { ...raised, updatedStamp: now })
    }
    const raised = increaseRow(tariff, fields.tariff, request.percent)
    return (await tariffs.update(id, { ...raised, ...increaseRecord(id, request), updatedStamp: now }))!
  })
}
