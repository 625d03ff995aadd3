import type { Stamp } from '../dates/stamp.js'
import type { Money } from '../money/money.js'
import type { AllowanceCall, AllowanceUpdate, RatingData } from '../ports/rating-data.js'
import { allocateMonth, type MonthCall } from './allowances.js'
import { findRate } from './find-rate.js'
import { rateCall } from './rate-call.js'
import { tariffOn } from './rating-tariff.js'
import { dateOfStamp } from './time-band.js'
import { allowancesByCustomer, byCustomer, type RatingShared, type TouchedMonths } from './rating-context.js'

/** Customers whose month is read and allocated at once. */
const CUSTOMERS_AT_ONCE = 500

/**
 * Allocates again the allowances of each customer's month that an import or a run touched, over
 * every call of the month that may use one, in start order (calls starting in the same second by
 * their fingerprint, so the order they were imported in never matters), and prices again the
 * unbilled calls whose share changed. A late file thus moves allowance to its earlier calls and
 * charges the later ones (contract 11). Returns how many calls changed.
 */
export async function reallocateAllowances(
  data: RatingData,
  shared: RatingShared,
  touched: TouchedMonths,
  now: Stamp,
  /** Told the customers whose calls changed price, a chunk at a time. */
  changedCustomers?: (customerIDs: string[]) => Promise<unknown>,
): Promise<number> {
  const chunks: { readonly from: Stamp; readonly to: Stamp; readonly customers: string[] }[] = []
  for (const [month, customers] of touched.entries()) {
    const from = `${month}-01T00:00:00.000Z` as Stamp
    const to = `${nextMonth(month)}-01T00:00:00.000Z` as Stamp
    for (let i = 0; i < customers.length; i += CUSTOMERS_AT_ONCE) chunks.push({ from, to, customers: customers.slice(i, i + CUSTOMERS_AT_ONCE) })
  }
  // The next chunk is read while this one is allocated: at the end of an import this work holds
  // everything up (at the end of a 1,000,000-row Postgres import, 0.94 s where it took 1.03-1.13
  // one chunk after another; bench/RESULTS.md, session 22). Chunks are other customers or other
  // months, so no write here changes what the next one reads.
  const read = (i: number) => {
    const { from, to, customers } = chunks[i]
    const reading = Promise.all([data.allowanceHolders(customers, dateOfStamp(from)), data.allowanceCalls(customers, from, to)])
    // Its failure is thrown where it is awaited, not as a rejection nobody awaits yet.
    reading.catch(() => undefined)
    return reading
  }
  let changed = 0
  let next = chunks.length > 0 ? read(0) : null
  for (let i = 0; i < chunks.length; i++) {
    const [holders, calls] = await next!
    next = i + 1 < chunks.length ? read(i + 1) : null
    const allowances = allowancesByCustomer(holders, shared.plans)
    const updates: AllowanceUpdate[] = []
    const repriced = new Set<string>()
    for (const [customerID, list] of byCustomer(calls)) {
      list.sort(startOrder)
      const pools = allowances.get(customerID)
      const used = pools ? allocateMonth(list.map(asMonthCall), pools) : list.map(() => 0n)
      list.forEach((call, k) => {
        const update = pricedAgain(call, used[k], shared, now)
        if (update) {
          updates.push(update)
          repriced.add(customerID)
        }
      })
    }
    if (updates.length) {
      await data.updateAllowances(updates)
      await changedCustomers?.([...repriced])
    }
    changed += updates.length
  }
  return changed
}

/** Start time, then fingerprint: compared as code units, the same on every database. */
export function startOrder(a: Pick<AllowanceCall, 'startTime' | 'fingerprint'>, b: Pick<AllowanceCall, 'startTime' | 'fingerprint'>): number {
  if (a.startTime !== b.startTime) return a.startTime < b.startTime ? -1 : 1
  return a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0
}

const toMs = (seconds: number | null): bigint => BigInt(Math.round((seconds ?? 0) * 1000))

function asMonthCall(c: AllowanceCall): MonthCall {
  return { numberID: c.numberID, callType: c.callType, chargeBand: c.chargeBand, date: dateOfStamp(c.startTime), ratedMs: toMs(c.ratedDuration), billed: c.billed, usedMs: toMs(c.allowanceSeconds) }
}

/** The call priced with its new share of the allowance; null when nothing changes (or it is billed). */
function pricedAgain(call: AllowanceCall, usedMs: bigint, shared: RatingShared, now: Stamp): AllowanceUpdate | null {
  if (call.billed || usedMs === toMs(call.allowanceSeconds)) return null
  const stored = call.tariffID === null ? undefined : shared.tariffsById.get(call.tariffID)
  const tariff = stored && tariffOn(stored, call.startTime)
  const found = tariff ? findRate(tariff, call) : null
  if (!tariff || !found) return null
  const priced = rateCall(tariff, found.rate, call, usedMs)
  if ('unbilledReason' in priced) return null
  return { id: call.id, cost: priced.cost as Money, allowanceSeconds: Number(usedMs) / 1000, updatedStamp: now }
}

/** The month after `month` (YYYY-MM). */
export function nextMonth(month: string): string {
  const y = Number(month.slice(0, 4))
  const m = Number(month.slice(5, 7))
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}
