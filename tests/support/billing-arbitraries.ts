import fc from 'fast-check'
import { serviceChargeIntervals, type ServiceChargeInterval } from '../../core/billing/periods.js'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { d } from './billing-world.js'

/** A price, a count and a feature's terms, as the billing properties draw them. */
export const rate = fc.bigInt({ min: 0n, max: 200_000n }) // up to 20.0000, 4 places
export const count = fc.integer({ min: 0, max: 5 })
export interface DrawnFeature {
  interval: ServiceChargeInterval
  start: DateOnly
  rate: bigint
  count: number
  committed: number | null
  committedTermDays: number | null
  endDays: number | null
  carrier: bigint | null
}
export const featureArb: fc.Arbitrary<DrawnFeature> = fc.record({
  interval: fc.constantFrom(...serviceChargeIntervals),
  start: fc.integer({ min: 0, max: 365 }).map((n) => addDays(d('2024-01-01'), n)),
  rate,
  count,
  committed: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  committedTermDays: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
  endDays: fc.option(fc.integer({ min: 0, max: 900 }), { nil: null }),
  // The carrier's price (contract 16.2): null, or any price, its cost rides beside the charge.
  carrier: fc.option(rate, { nil: null }),
})
