import { BillingError, notFound } from '../errors.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import type { Item } from '../fields/item.js'
import type { PlatformContext } from '../platform.js'

/** `DELETE /calls/<id>`: marks the call deleted so no run bills it; a billed call stays. */
export async function deleteCall(ctx: PlatformContext, id: string): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const call = await store.repository('calls').getForUpdate(id)
    if (!call) throw notFound('call', id)
    if (call.transactionID) {
      throw new BillingError('state_not_allowed', `Call ${id} is billed on transaction ${call.transactionID}`, 'Credit the customer with a manual transaction instead.')
    }
    const deleted = (await store.repository('calls').update(id, { deleted: true, updatedStamp: ctx.clock.now() }))!
    // A deleted call is no longer an unbilled call charge (contract 10.6).
    if (call.customerID) await refreshCreditAlerts(store, [call.customerID], ctx.clock.now(), { expectedSpendAlertRatio: ctx.presets.expectedSpendAlertRatio, act: ctx })
    return deleted
  })
}

/** The customer action restoreCalls: its deleted calls come back to be billed. */
export async function restoreCalls(ctx: PlatformContext, customerID: string): Promise<number> {
  return ctx.store.transaction(async (store) => {
    // Billable from now: the Call Charges rows of runs before this never claim them (call-marks.ts).
    const callMark = await store.callMarks.current()
    // Where the next run's read of calls must start (CallMarks.noteSince); a restore is rare, its deleted calls few.
    const deleted = await store.repository('calls').list({ where: [{ op: 'eq', column: 'customerID', value: customerID }, { op: 'eq', column: 'deleted', value: true }], limit: 1_000_000, storedOnly: true })
    const starts = deleted.flatMap((c) => (c.startTime ? [c.startTime] : [])).sort()
    if (starts.length) await store.callMarks.noteSince(callMark, starts[0])
    const restored = await store.repository('calls').updateWhere(
      [
        { op: 'eq', column: 'customerID', value: customerID },
        { op: 'eq', column: 'deleted', value: true },
      ],
      { deleted: false, callMark, updatedStamp: ctx.clock.now() },
    )
    if (restored > 0) await refreshCreditAlerts(store, [customerID], ctx.clock.now(), { expectedSpendAlertRatio: ctx.presets.expectedSpendAlertRatio, act: ctx })
    return restored
  })
}
