import { suite } from 'uvu'
import fc from 'fast-check'
import * as assert from 'uvu/assert'
import { applyChange, chargeChangeModes, effectiveHistory, versionAt, type ChargeVersion } from '../../core/billing/charge-history.js'
import { layoutAt, layoutRuns } from '../../core/billing/layout-runs.js'
import type { ServiceChargeInterval } from '../../core/billing/periods.js'
import { addDays } from '../../core/dates/date-only.js'
import { d, m } from '../support/billing-world.js'
import { day, historyArb, interval, prices, start } from '../support/scheduled-histories.js'

/**
 * A person's charge change (contract 9.4, 17.5) against the intervals already scheduled: it sets
 * the price and count from its date on, superseding later ones, and the interval only when it
 * gives one; the periods every later change of interval lays out stand otherwise, in every mode.
 */
const test = suite('core/billing: a charge change and the scheduled intervals')

test('after any change the interval in force on each later date is the one scheduled for it, unless the change gives its own', () => {
  fc.assert(
    fc.property(historyArb, day, fc.constantFrom(...chargeChangeModes), fc.option(interval, { nil: undefined }), fc.constantFrom(0, 1, 2), (history, from, mode, own, price) => {
      const feature: ServiceChargeInterval = history[history.length - 1].interval!
      const change = { from, serviceCharge: prices[price], featureCount: 2, mode, ...(own ? { interval: own } : {}) }
      const before = effectiveHistory(history, start)
      const after = effectiveHistory(applyChange(history, change, -1), start)
      const runsBefore = layoutRuns(feature, start, before)
      const runsAfter = layoutRuns(feature, start, after)
      const dates = [...new Set([...history.map((v) => v.from), from, ...[0, 1, 45, 120, 400].map((n) => addDays(from, n))])].filter((t) => t >= from)
      for (const t of dates) {
        // The price and count are the change's from its date on, whatever was scheduled after it.
        const v = versionAt(after, t)!
        assert.equal([v.serviceCharge, v.featureCount], [prices[price], 2], `values on ${t}`)
        const expected = own ?? layoutAt(runsBefore, t).schedule.interval
        assert.is(layoutAt(runsAfter, t).schedule.interval, expected, `interval on ${t}`)
      }
      if (own) return
      // Without an interval of its own, each period a later change of interval laid out stands, anchored where it was.
      for (const r of runsBefore.filter((r) => r.from > from)) assert.equal(layoutAt(runsAfter, r.from).schedule, r.schedule, `layout from ${r.from}`)
    }),
    { numRuns: 500 },
  )
})

test('the audit example: Calendar Quarterly from 1 July stays under a replace of the price from 1 March', () => {
  const history: ChargeVersion[] = [
    { from: d('2026-01-01'), serviceCharge: m('10'), featureCount: 1, interval: 'Calendar Monthly', series: 0, mode: 'replace' },
    { from: d('2026-07-01'), serviceCharge: m('10'), featureCount: 1, interval: 'Calendar Quarterly', newLayout: true, series: 0, mode: 'replace' },
  ]
  const after = applyChange(history, { from: d('2026-03-01'), serviceCharge: m('12'), featureCount: 1, mode: 'replace' }, 0)
  assert.equal(
    after.map((v) => [v.from, v.serviceCharge, v.interval, v.newLayout ?? false]),
    [
      [d('2026-01-01'), m('10'), 'Calendar Monthly', false],
      [d('2026-03-01'), m('12'), 'Calendar Monthly', false],
      [d('2026-07-01'), m('12'), 'Calendar Quarterly', true],
    ],
  )
})

test.run()
