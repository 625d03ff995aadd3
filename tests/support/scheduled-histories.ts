import fc from 'fast-check'
import type { ChargeVersion } from '../../core/billing/charge-history.js'
import { serviceChargeIntervals } from '../../core/billing/periods.js'
import { addDays } from '../../core/dates/date-only.js'
import { d, m } from './billing-world.js'

/** Charge histories as the API writes them, for properties of a change against what is scheduled after it. */
export const start = d('2025-01-01')
export const prices = ['10', '20', '30'].map(m)
export const day = fc.integer({ min: 0, max: 900 }).map((n) => addDays(start, n))
export const interval = fc.constantFrom(...serviceChargeIntervals)
export const committedArb = fc.option(fc.constantFrom<number | null>(null, 2, 5, 8), { nil: undefined })
const versionArb = fc.record({
  from: day,
  price: fc.constantFrom(0, 1, 2),
  count: fc.integer({ min: 1, max: 3 }),
  committed: committedArb,
  interval: fc.option(interval, { nil: undefined }),
  add: fc.boolean(),
})

/** A history as the API writes it: each version carries the committed count and interval in force. */
export const historyArb = fc.record({ first: interval, own: fc.constantFrom<number | null>(null, 4), later: fc.uniqueArray(versionArb, { selector: (v) => v.from, maxLength: 6 }) }).map(({ first, own, later }) => {
  const history: ChargeVersion[] = [{ from: start, serviceCharge: prices[0], featureCount: 1, committed: own, interval: first, series: 0, mode: 'replace' }]
  for (const v of [...later].filter((v) => v.from > start).sort((a, b) => (a.from < b.from ? -1 : 1))) {
    const prev = history[history.length - 1]
    history.push({
      from: v.from,
      serviceCharge: prices[v.price],
      featureCount: v.count,
      committed: v.committed === undefined ? prev.committed : v.committed,
      interval: v.interval ?? prev.interval,
      ...(v.interval ? { newLayout: true as const } : {}),
      series: prev.series + (v.add ? 1 : 0),
      mode: v.add ? 'add' : 'replace',
    })
  }
  return history
})
