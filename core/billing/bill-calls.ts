import type { DateOnly } from '../dates/date-only.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import { round, sum } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { endOfDay } from '../rating/rate-unrated-calls.js'
import { dateOfStamp } from '../rating/time-band.js'
import type { RunCall, RunCustomer } from './run-fields.js'
import { vatOn } from './vat.js'
import { callVATRates } from './call-vat-rates.js'

/**
 * Bills the rated, undeleted calls of a batch of customers started up to the cutoff: one
 * `Call Charges` transaction per number and VAT rate (`callVATRates`), rounded once to pence. Usage is
 * billed while suspended, not while non-billable (contract 5.4). Returns the customers billed.
 */
export async function billCalls(
  ctx: PlatformContext,
  store: Store,
  customers: readonly RunCustomer[],
  cutoff: DateOnly,
  events: ReadonlyMap<string, LifecycleEvent[]>,
  billingRunID: string,
): Promise<Set<string>> {
  const byID = new Map(customers.map((c) => [c.id, c]))
  // The six columns billing uses, not whole rows: a preview's 5,000 calls spent most of its time decoding them (bench/RESULTS.md, issue 53).
  const calls = await store.runSource.unbilledCalls(
    customers.map((c) => c.id),
    endOfDay(cutoff),
  )
  const billable = calls.filter((call) => call.startTime !== endOfDay(cutoff))
  const rateOf = await callVATRates(store, billable, customers.map((c) => c.id))
  const groups = new Map<string, { VATRate: string | null; calls: RunCall[] }>()
  for (const call of billable) {
    const customer = call.customerID ? byID.get(call.customerID) : undefined
    if (!customer) continue // read by the batch's customer IDs: always one of them
    const VATRate = rateOf(call, customer)
    const key = `${call.customerID}:${call.numberID}:${VATRate}`
    const group = groups.get(key)
    if (group) group.calls.push(call)
    else groups.set(key, { VATRate, calls: [call] })
  }
  const billed = new Set<string>()
  for (const { VATRate, calls: group } of groups.values()) {
    const customer = byID.get(group[0].customerID!)!
    const numberID = group[0].numberID
    const chain = [...(events.get(`customers:${customer.id}`) ?? []), ...(numberID ? (events.get(`numbers:${numberID}`) ?? []) : [])]
    if (!effectiveStateOn(chain, cutoff).billable) continue
    // A rated call has a cost; its start time orders the dates the transaction covers.
    const amount = round(sum(group.flatMap((c) => (c.cost === null ? [] : [c.cost]))), 2)
    // The carrier's side of the same row (contract 16.2), rounded once as the amount is.
    const carrierCost = round(sum(group.flatMap((c) => (c.carrierCost === null ? [] : [c.carrierCost]))), 2)
    const dates = group.flatMap((c) => (c.startTime ? [dateOfStamp(c.startTime)] : [])).sort()
    const now = ctx.clock.now()
    const tx = await store.repository('transactions').insert({
      customerID: customer.id,
      numberID,
      transactionType: 'Call Charges',
      description: `Calls (${group.length})`,
      transactionDate: cutoff,
      dateFrom: dates[0],
      dateTo: dates.at(-1)!,
      quantity: group.length,
      amount,
      VATRate,
      VATAmount: vatOn(amount, VATRate, ctx.presets),
      carrierCost,
      approved: false,
      billingRunID,
      createdStamp: now,
      updatedStamp: now,
    })
    await store.repository('calls').updateWhere([{ op: 'in', column: 'id', values: group.map((c) => c.id) }], { transactionID: tx.id })
    billed.add(customer.id)
  }
  return billed
}
