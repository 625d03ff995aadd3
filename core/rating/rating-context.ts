import type { Stamp } from '../dates/stamp.js'
import type { CallClass } from '../fields/call-classes.js'
import type { BatchNumbers, RatingData } from '../ports/rating-data.js'
import type { DiscountPlan } from '../presets/discount-plans.js'
import { customerAllowances, mayUseAllowance, type AllowanceHolder, type CustomerAllowances } from './allowances.js'
import { buildNumberIndex, indexIgnores, recordKey, type IgnoreTrafficEntry } from './match-number.js'
import type { AllowanceOf, RatingContext } from './rate-record.js'
import { byHolder, NO_FEATURES } from './feature-tariffs.js'
import { withParents } from './parent-tariffs.js'
import type { RatingTariff } from './rating-tariff.js'
import { dateOfStamp } from './time-band.js'
import type { UsageRecord } from './usage-record.js'

/** What rating loads once per import or billing run: few rows, whatever the number of numbers. */
export interface RatingShared {
  readonly tariffs: ReadonlyMap<string, RatingTariff>
  readonly tariffsById: ReadonlyMap<string, RatingTariff>
  readonly ignored: ReadonlyMap<string, readonly IgnoreTrafficEntry[]>
  readonly plans: Readonly<Record<string, DiscountPlan>>
}

/** A batch's context: its records' numbers and customers, and the customers' allowances. */
export interface BatchContext extends RatingContext {
  readonly allowances: ReadonlyMap<string, CustomerAllowances>
  /** What `rateRecord` is given for these allowances (`provisionalAllowance`). */
  readonly allowance: AllowanceOf
  /** The numbers' customers with a credit limit or stored alert of their own (`BatchNumbers`). */
  readonly creditWatched: ReadonlySet<string>
}

export async function loadRatingShared(data: RatingData, plans: Readonly<Record<string, DiscountPlan>>): Promise<RatingShared> {
  const [ignores, stored] = await Promise.all([data.ignoreTraffic(), data.tariffs()])
  const tariffs = withParents(stored)
  return { tariffs, tariffsById: new Map([...tariffs.values()].map((t) => [t.id, t])), ignored: indexIgnores(ignores), plans }
}

const NO_NUMBERS: BatchNumbers = { numbers: [], customers: new Map(), creditWatched: new Set() }

/**
 * Loads what a batch of records needs: the live numbers they match (looked up by index), those
 * numbers' customers' tariff settings and allowances. Memory follows the batch.
 */
export async function loadBatchContext(data: RatingData, shared: RatingShared, records: readonly UsageRecord[], moreClasses: readonly CallClass[] = []): Promise<BatchContext> {
  const keys = new Set<string>()
  // Classes destinations may give records that lack one: their tariffs are read with the batch's.
  const classes = new Set<CallClass>(moreClasses)
  // Dropped holders are read back to the batch's first call (`allowanceHolders`).
  let first: Stamp | null = null
  for (const r of records) {
    const key = recordKey(r)
    if (key) keys.add(key)
    classes.add(r.callClass)
    if (first === null || r.startTime < first) first = r.startTime
  }
  const { numbers, customers, creditWatched } = keys.size ? await data.numbersByKeys([...keys], [...classes]) : NO_NUMBERS
  const customerIDs = [...customers.keys()]
  // Asked together: beside an import's transaction each answer waits a turn of the event loop.
  const [holders, features] = customers.size
    ? await Promise.all([data.allowanceHolders(customerIDs, dateOfStamp(first!)), data.featureTariffs(customerIDs, [...classes])])
    : [[], []]
  const allowances = allowancesByCustomer(holders, shared.plans)
  return {
    numbers: buildNumberIndex(numbers, shared.ignored),
    customers,
    tariffs: shared.tariffs,
    features: features.length ? byHolder(features) : NO_FEATURES,
    allowances,
    allowance: provisionalAllowance(allowances),
    creditWatched,
  }
}

/** Each customer's pools, from its holders. */
export function allowancesByCustomer(holders: readonly AllowanceHolder[], plans: Readonly<Record<string, DiscountPlan>>): Map<string, CustomerAllowances> {
  const out = new Map<string, CustomerAllowances>()
  for (const [id, list] of byCustomer(holders)) out.set(id, customerAllowances(list, plans))
  return out
}

/** Items grouped by their customer, each group in the items' order. */
export function byCustomer<T extends { readonly customerID: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const list = groups.get(item.customerID)
    if (list) list.push(item)
    else groups.set(item.customerID, [item])
  }
  return groups
}

/**
 * A batch's provisional allowances: a call a plan of its number covers is first priced as wholly
 * covered; once the import's calls are stored, each month's calls are allocated in start order
 * (`reallocateAllowances`) and only the calls whose share differs are written again. Allowances
 * are sized to cover most calls, so most need no second write.
 */
export function provisionalAllowance(byCustomer: ReadonlyMap<string, CustomerAllowances>): AllowanceOf {
  return (number, record, ratedMs) => {
    const allowances = byCustomer.get(number.customerID)
    return allowances && mayUseAllowance(allowances, number.numberID, record.callClass, record.chargeBand, dateOfStamp(record.startTime)) ? ratedMs : null
  }
}

/** The customers and months whose allowances an import or run must allocate again. */
export class TouchedMonths {
  private months = new Map<string, Set<string>>()
  private count = 0

  add(customerID: string, startTime: Stamp): void {
    const month = startTime.slice(0, 7)
    const set = this.months.get(month)
    if (!set) {
      this.months.set(month, new Set([customerID]))
      this.count++
    } else if (!set.has(customerID)) {
      set.add(customerID)
      this.count++
    }
  }

  /** Months in order, each with its customers. */
  entries(): [string, string[]][] {
    return [...this.months].sort(([a], [b]) => (a < b ? -1 : 1)).map(([m, s]) => [m, [...s]])
  }

  /** How many customer months wait. */
  get customers(): number {
    return this.count
  }

  /** The months waiting, leaving none. */
  take(): TouchedMonths {
    const taken = new TouchedMonths()
    taken.months = this.months
    taken.count = this.count
    this.months = new Map()
    this.count = 0
    return taken
  }
}
