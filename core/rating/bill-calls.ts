import { addDays, type DateOnly } from '../dates/date-only.js'
import type { Item } from '../fields/item.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import { round, sum, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { vatOn } from '../billing/ledger-writes.js'
import { isRated, rateRecord, type RatingContext } from './rate-record.js'
import { loadRatingContext } from './rating-context.js'
import type { UsageRecord } from './usage-record.js'

/** The first instant after the cutoff day, as stamp text: calls started before it are billed. */
export const endOfDay = (date: DateOnly): string => `${addDays(date, 1)}T00:00:00.000Z`

/**
 * Rates again the calls that could not be rated (a number or tariff may exist now), for calls
 * started up to the cutoff, in pages.
 */
export async function rateUnratedCalls(ctx: PlatformContext, cutoff: DateOnly): Promise<number> {
  const calls = ctx.store.repository('calls')
  // Loaded at the first unrated call only: it holds every number, and most runs have none to rate.
  let context: RatingContext | null = null
  let after: string | undefined
  let rated = 0
  for (;;) {
    const page = await calls.list({
      where: [
        { op: 'eq', column: 'rated', value: false },
        { op: 'eq', column: 'deleted', value: false },
        { op: 'lte', column: 'startTime', value: endOfDay(cutoff) },
      ],
      idAfter: after,
      limit: 1000,
    })
    if (page.length === 0) return rated
    context ??= await loadRatingContext(ctx.store.rating)
    for (const call of page) {
      const result = rateRecord(asRecord(call), context)
      if (!isRated(result)) continue
      await calls.update(call.id, {
        customerID: result.customerID,
        numberID: result.numberID,
        tariffID: result.tariffID,
        cost: result.cost,
        ratedDuration: result.ratedDuration,
        timeBand: result.timeBand,
        rated: true,
        unbilledReason: null,
        updatedStamp: ctx.clock.now(),
      })
      rated++
    }
    after = page.at(-1)!.id
  }
}

function asRecord(call: Item): UsageRecord {
  return {
    lineNumber: 0,
    callingNumber: (call.callingNumber as string) ?? '',
    dialledNumber: (call.dialledNumber as string) ?? '',
    startTime: call.startTime as never,
    durationSeconds: (call.durationSeconds as number) ?? 0,
    chargeBand: (call.chargeBand as string) ?? '',
    callClass: call.callType as never,
    carrier: (call.carrier as string) ?? '',
    bytes: (call.bytes as number | null) ?? null,
    events: (call.events as number | null) ?? null,
    origination: 'fixed',
    recorded: false,
    externalID: null,
    wholesaleCost: null,
  }
}

/**
 * Bills the rated, undeleted calls of a batch of customers started up to the cutoff: one
 * `Call Charges` transaction per number, rounded once to pence, VAT at the calls rate. Usage is
 * billed while suspended, not while non-billable (contract 5.4).
 */
export async function billCalls(
  ctx: PlatformContext,
  store: Store,
  customers: readonly Item[],
  cutoff: DateOnly,
  events: ReadonlyMap<string, LifecycleEvent[]>,
  billingRunID: string,
): Promise<number> {
  const byID = new Map(customers.map((c) => [c.id, c]))
  const calls = await store.repository('calls').listIn(
    'customerID',
    customers.map((c) => c.id),
    [
      { op: 'eq', column: 'rated', value: true },
      { op: 'eq', column: 'deleted', value: false },
      { op: 'isNull', column: 'transactionID', value: true },
      { op: 'lte', column: 'startTime', value: endOfDay(cutoff) },
    ],
  )
  const groups = new Map<string, Item[]>()
  for (const call of calls) {
    if (call.startTime === endOfDay(cutoff)) continue
    const key = `${call.customerID}:${call.numberID}`
    const list = groups.get(key)
    if (list) list.push(call)
    else groups.set(key, [call])
  }
  let written = 0
  for (const group of groups.values()) {
    const customer = byID.get(group[0].customerID as string)!
    const numberID = group[0].numberID as string | null
    const chain = [...(events.get(`customers:${customer.id}`) ?? []), ...(numberID ? (events.get(`numbers:${numberID}`) ?? []) : [])]
    if (!effectiveStateOn(chain, cutoff).billable) continue
    const amount = round(sum(group.map((c) => c.cost as Money)), 2)
    const VATRate = ((customer.VATRateCalls as string | null) ?? (customer.VATRate as string | null) ?? null) || null
    const dates = group.map((c) => (c.startTime as string).slice(0, 10)).sort()
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
      approved: false,
      billingRunID,
      createdStamp: now,
      updatedStamp: now,
    })
    await store.repository('calls').updateWhere([{ op: 'in', column: 'id', values: group.map((c) => c.id) }], { transactionID: tx.id })
    written++
  }
  return written
}
