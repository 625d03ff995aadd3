import type { DateOnly } from '../dates/date-only.js'
import type { DiscountPlan } from '../presets/discount-plans.js'

/**
 * Discount plan allowances (contract 11): a holder's `discountPlan1..4` give calls minutes a
 * calendar month, free of charge, used in call start order. Pure: who holds what comes in, which
 * seconds each call used goes out.
 *
 * - A number's plans cover its own calls; a feature's cover the calls of the number it is on, or,
 *   on a customer or a service, every number of the customer.
 * - Each plan of a holder adds `allowanceMinutes` × its `discountPlanMultiplierN` (1 when unset;
 *   numbers have none) × its `featureCount` (1 when unset; numbers have none) to a pool.
 * - Holders with the same `discountPlanAllowancePoolName` under one customer share one pool: every
 *   plan any of them holds, for the calls of every number any of them covers. A feature on a
 *   customer or service that names a pool covers only the pool's numbers; a number that names a
 *   pool joins it even without a plan of its own. A holder without a pool name is a pool alone.
 * - A call uses the buckets (pool × plan) that cover its class and charge band, each as far as it
 *   has seconds left: first the pools its number belongs to, then those of features covering every
 *   number of the customer (a fallback), each group in order of pool then plan name.
 * - A holder's plans cover only calls from its `from` date, the first day they are in force (a
 *   feature's `startDate`), up to its `through` date, the last (a feature's `endDate`, or its
 *   bill-to date when dropped earlier; a dropped number's drop date): a late file's calls from
 *   before a drop use the month's allowance as they would have arriving before it. A month a
 *   holder starts or ends in still gives its whole allowance, to the calls in its window. Within a
 *   bucket, the milliseconds ending soonest are used first.
 */

/** A number or feature holding a plan or naming a pool, as the rater reads it. */
export interface AllowanceHolder {
  readonly kind: 'number' | 'feature'
  readonly id: string
  readonly customerID: string
  /** The number whose calls it covers; null for a feature on a customer or a service. */
  readonly numberID: string | null
  readonly poolName: string | null
  /** `discountPlan1..4`. */
  readonly plans: readonly (string | null)[]
  /** `discountPlanMultiplier1..4` (features only). */
  readonly multipliers: readonly (number | null)[]
  readonly featureCount: number | null
  /** Set on a holder that starts: the first day its plans cover calls. Unset or null: no start. */
  readonly from?: DateOnly | null
  /** Set on a holder that ends or is dropped: the last day its plans cover calls. Unset or null: no end. */
  readonly through?: DateOnly | null
}

/** Some of a bucket's milliseconds, and the days they cover calls: `from` (null: no start) through `through` (null: no end). */
export interface AllowancePortion {
  readonly from: DateOnly | null
  readonly through: DateOnly | null
  readonly ms: bigint
}

/** One plan's allowance in one pool, for a month. */
export interface AllowanceBucket {
  readonly key: string
  readonly plan: DiscountPlan
  /** Milliseconds a month. */
  readonly ms: bigint
  /** The same milliseconds by the day they cover calls through, soonest first, no end last. */
  readonly portions: readonly AllowancePortion[]
  /** The first day any of them covers calls; null: no start. */
  readonly from: DateOnly | null
  /** The last day any of them covers calls; null: no end. */
  readonly through: DateOnly | null
}

/** What covers a call of a customer: the buckets of its number, in the order they are used. */
export interface CustomerAllowances {
  bucketsOf(numberID: string): readonly AllowanceBucket[]
}

/** Every number of the customer. */
const ALL = '*'

/** The pools of one customer's holders. */
export function customerAllowances(holders: readonly AllowanceHolder[], plans: Readonly<Record<string, DiscountPlan>>): CustomerAllowances {
  const members = new Map<string, Set<string>>()
  const buckets = new Map<string, PoolBucket>()
  for (const h of holders) {
    const pool = h.poolName !== null && h.poolName.trim() !== '' ? `pool:${h.poolName.trim()}` : `${h.kind}:${h.id}`
    const member = h.numberID ?? (h.poolName !== null && h.poolName.trim() !== '' ? null : ALL)
    if (member !== null) {
      const set = members.get(pool) ?? new Set<string>()
      set.add(member)
      members.set(pool, set)
    }
    for (let i = 0; i < h.plans.length; i++) {
      const name = h.plans[i]
      const plan = name === null ? undefined : plans[name]
      if (!plan || plan.callClasses.length === 0) continue
      const ms = allowanceMs(plan, h.multipliers[i] ?? null, h.featureCount)
      if (ms <= 0n) continue
      const key = `${pool}|${name}`
      const from = h.from ?? null
      const through = h.through ?? null
      const bucket = buckets.get(key)
      if (!bucket) buckets.set(key, { key, pool, plan, ms, portions: [{ from, through, ms }], from, through })
      else {
        bucket.ms += ms
        const same = bucket.portions.findIndex((p) => p.from === from && p.through === through)
        if (same >= 0) bucket.portions[same] = { from, through, ms: bucket.portions[same].ms + ms }
        else bucket.portions.push({ from, through, ms })
        bucket.from = bucket.from === null || from === null ? null : bucket.from < from ? bucket.from : from
        bucket.through = bucket.through === null || through === null ? null : bucket.through > through ? bucket.through : through
      }
    }
  }
  for (const b of buckets.values()) if (b.portions.length > 1) b.portions.sort(soonestFirst)
  const ordered = [...buckets.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const byNumber = new Map<string, AllowanceBucket[]>()
  // Built for each batch of an import, for the customers its calls are on: loops rather than
  // closures and copies, about a twentieth of what an import allocated (bench/RESULTS.md, session 21).
  return {
    bucketsOf(numberID) {
      let list = byNumber.get(numberID)
      if (!list) {
        const own: AllowanceBucket[] = []
        const everyNumber: AllowanceBucket[] = []
        for (const b of ordered) {
          const pool = members.get(b.pool)
          if (pool?.has(numberID)) own.push(b)
          else if (pool?.has(ALL)) everyNumber.push(b)
        }
        list = everyNumber.length === 0 ? own : own.concat(everyNumber)
        byNumber.set(numberID, list)
      }
      return list
    },
  }
}

/** A bucket as `customerAllowances` builds it, with the pool its key starts with. */
interface PoolBucket {
  readonly key: string
  readonly pool: string
  readonly plan: DiscountPlan
  ms: bigint
  readonly portions: AllowancePortion[]
  from: DateOnly | null
  through: DateOnly | null
}

const soonestFirst = (a: AllowancePortion, b: AllowancePortion): number =>
  a.through === b.through ? 0 : a.through === null ? 1 : b.through === null ? -1 : a.through < b.through ? -1 : 1

/** Whether a bucket or portion covers calls on `date`: on or after its `from`, on or before its `through`. */
const inForce = (window: { readonly from: DateOnly | null; readonly through: DateOnly | null }, date: DateOnly): boolean =>
  (window.from === null || window.from <= date) && (window.through === null || date <= window.through)

/** minutes × multiplier × count, to the millisecond (rounded half up). */
export function allowanceMs(plan: DiscountPlan, multiplier: number | null, featureCount: number | null): bigint {
  const ms = plan.allowanceMinutes * 60_000 * (multiplier ?? 1) * (featureCount ?? 1)
  return Number.isFinite(ms) && ms > 0 ? BigInt(Math.round(ms)) : 0n
}

/** Whether a bucket's plan covers a call of this class and charge band. */
export const covers = (plan: DiscountPlan, callType: string, chargeBand: string): boolean =>
  plan.callClasses.includes(callType) && (plan.chargeBands === null || plan.chargeBands.includes(chargeBand))

/** Whether any plan of the number's buckets in force on `date` covers the call: then it can use an allowance. */
export function mayUseAllowance(allowances: CustomerAllowances, numberID: string, callType: string, chargeBand: string, date: DateOnly): boolean {
  for (const b of allowances.bucketsOf(numberID)) if (covers(b.plan, callType, chargeBand) && inForce(b, date)) return true
  return false
}

/** A call of the month as allocation reads it. */
export interface MonthCall {
  readonly numberID: string
  readonly callType: string
  readonly chargeBand: string
  /** The day it started: a holder's plans cover calls from their `from` up to their `through` only. */
  readonly date: DateOnly
  /** The rated duration in milliseconds. */
  readonly ratedMs: bigint
  /** Billed calls keep what they used: it is on an invoice. */
  readonly billed: boolean
  /** What it used when last rated. */
  readonly usedMs: bigint
}

/**
 * The milliseconds each call of one customer's month uses, the calls given in start order. Billed
 * calls first take again what they took when billed (as far as it is there): that is on an
 * invoice, so a late call never makes a month give more than its allowance. Then each other call,
 * in start order, uses what its buckets have left, up to its rated duration. The same calls give
 * the same result whatever order they were imported in.
 */
export function allocateMonth(calls: readonly MonthCall[], allowances: CustomerAllowances): bigint[] {
  // By portion: a bucket's portions are its only objects, and no key is made a call.
  const left = new Map<AllowancePortion, bigint>()
  const used = new Array<bigint>(calls.length).fill(0n)
  const take = (call: MonthCall, want: bigint): bigint => {
    let got = 0n
    for (const b of allowances.bucketsOf(call.numberID)) {
      if (want <= got) break
      if (!covers(b.plan, call.callType, call.chargeBand) || !inForce(b, call.date)) continue
      for (const portion of b.portions) {
        if (want <= got) break
        if (!inForce(portion, call.date)) continue
        const remaining = left.get(portion) ?? portion.ms
        const share = remaining < want - got ? remaining : want - got
        if (share <= 0n) continue
        left.set(portion, remaining - share)
        got += share
      }
    }
    return got
  }
  calls.forEach((call, i) => {
    if (call.billed) used[i] = take(call, call.usedMs)
  })
  calls.forEach((call, i) => {
    if (!call.billed) used[i] = take(call, call.ratedMs)
  })
  return used
}
