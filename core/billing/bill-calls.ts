import { minDate, type DateOnly } from '../dates/date-only.js'
import { callsCutoffOf, type RunCallBounds } from './run-call-mark.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import { round, sum } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { endOfDay } from '../rating/rate-unrated-calls.js'
import { dateOfStamp } from '../rating/time-band.js'
import type { RunCall, RunCustomer } from '../ports/run-fields.js'
import { vatOn } from './vat.js'
import { billedThrough, finalBillOf } from './final-bill-through.js'
import { callVATRates } from './call-vat-rates.js'
import { callAccountCodes } from './call-account-codes.js'

/**
 * Bills the rated, undeleted calls of a batch of customers started up to the run's calls' cutoff
 * (`callsCutoffOf`; a customer in final bill: up to its final-bill date when later than the
 * cutoff, `billedThrough`) and marked below the run's mark: one `Call Charges` transaction per
 * number and VAT rate (`callVATRates`), rounded once to pence, dated on that day (at most the
 * cutoff) so that the invoice through it takes it. Usage is billed while suspended, not while
 * non-billable (contract 5.4). Returns the customers billed.
 *
 * The calls are not written: each row records what it covers (its customer and number, its
 * calls' first and last start and the run's mark), and a call's transaction is derived from
 * that where it is read. Where a number's calls go to rows of more than one VAT rate, which
 * rate a call took is not a matter of its start, so those rows list their calls' IDs.
 */
export async function billCalls(
  ctx: PlatformContext,
  store: Store,
  customers: readonly RunCustomer[],
  cutoff: DateOnly,
  events: ReadonlyMap<string, LifecycleEvent[]>,
  run: RunCallBounds,
): Promise<Set<string>> {
  const callMark = run.callMark
  if (typeof callMark !== 'number') throw new Error(`billing run ${run.id} bills calls without a call mark (markRunCalls)`)
  const byID = new Map(customers.map((c) => [c.id, c]))
  // A call at midnight after the cutoff is the next period's: the read stops before it.
  const usual = callsCutoffOf(run, cutoff)
  const through = (customer: RunCustomer) => (finalBillOf(customer) ? billedThrough(customer, cutoff) : usual)
  const billable = await unbilledThrough(store, customers, usual, through, callMark, run.callsSince ?? null)
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
  const codes = await callAccountCodes(store, [...new Set(billable.flatMap((c) => (c.numberID ? [c.numberID] : [])))])
  const rates = new Map<string, number>()
  for (const { calls: group } of groups.values()) {
    const number = `${group[0].customerID}:${group[0].numberID}`
    rates.set(number, (rates.get(number) ?? 0) + 1)
  }
  const billed = new Set<string>()
  for (const { VATRate, calls: group } of groups.values()) {
    const customer = byID.get(group[0].customerID!)!
    const numberID = group[0].numberID
    const chain = [...(events.get(`customers:${customer.id}`) ?? []), ...(numberID ? (events.get(`numbers:${numberID}`) ?? []) : [])]
    if (!effectiveStateOn(chain, cutoff).billable) {
      // Left for a later run, which reads from here (run-call-mark.ts).
      const first = group.reduce<string | null>((a, c) => (c.startTime && (a === null || c.startTime < a) ? c.startTime : a), null)
      if (first !== null) await store.callMarks.noteSince(callMark, first)
      continue
    }
    // A rated call has a cost; its start time orders the dates the transaction covers.
    const amount = round(sum(group.flatMap((c) => (c.cost === null ? [] : [c.cost]))), 2)
    const starts = group.flatMap((c) => (c.startTime ? [c.startTime] : [])).sort()
    const dates = starts.map(dateOfStamp)
    const split = rates.get(`${customer.id}:${numberID}`)! > 1
    // The carrier's side of the same row (contract 16.2), rounded once as the amount is.
    const carrierCost = round(sum(group.flatMap((c) => (c.carrierCost === null ? [] : [c.carrierCost]))), 2)
    const now = ctx.clock.now()
    await store.repository('transactions').insert({
      customerID: customer.id,
      numberID,
      transactionType: 'Call Charges',
      description: `Calls (${group.length})`,
      transactionDate: minDate(cutoff, through(customer)),
      dateFrom: dates[0],
      dateTo: dates.at(-1)!,
      quantity: group.length,
      amount,
      VATRate,
      VATAmount: vatOn(amount, VATRate, ctx.presets),
      carrierCost,
      accountCode: (numberID && codes.get(numberID)) || null,
      approved: false,
      billingRunID: run.id,
      callsFrom: starts[0],
      callsTo: starts.at(-1)!,
      callMark,
      callIDs: split ? `,${group.map((c) => c.id).join(',')},` : null,
      createdStamp: now,
      updatedStamp: now,
    })
    billed.add(customer.id)
  }
  return billed
}

/**
 * The batch's unbilled calls started through each customer's day (`through`), in ID order. The
 * columns billing uses (`runCallFields`), not whole rows: a preview's 5,000 calls spent most of its time
 * decoding them (bench/RESULTS.md, issue 53). Customers billed past the usual day (in final bill)
 * are read apart, so the batch's usual read keeps its one statement.
 */
async function unbilledThrough(
  store: Store,
  customers: readonly RunCustomer[],
  day: DateOnly,
  through: (customer: RunCustomer) => DateOnly,
  callMark: number,
  since: string | null,
): Promise<RunCall[]> {
  const beyond = customers.filter((c) => through(c) > day)
  const usual = beyond.length ? customers.filter((c) => !beyond.includes(c)) : customers
  const calls = usual.length ? await store.runSource.unbilledCalls(usual.map((c) => c.id), endOfDay(day), callMark, since) : []
  if (beyond.length === 0) return calls
  const ends = new Map(beyond.map((c) => [c.id, endOfDay(through(c))]))
  const latest = [...ends.values()].reduce((a, b) => (a > b ? a : b))
  const more = await store.runSource.unbilledCalls([...ends.keys()], latest, callMark, since)
  for (const call of more) if (call.startTime && call.startTime < ends.get(call.customerID!)!) calls.push(call)
  return calls.sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
