import { suite } from 'uvu'
import fc from 'fast-check'
import * as assert from 'uvu/assert'
import { applyChange, chargeChangeModes, effectiveHistory, versionAt, type ChargeVersion } from '../../core/billing/charge-history.js'
import { layoutAt, layoutRuns } from '../../core/billing/layout-runs.js'
import type { ServiceChargeInterval } from '../../core/billing/periods.js'
import { addDays } from '../../core/dates/date-only.js'
import { d, feature, m, show, World } from '../support/billing-world.js'
import { committedArb, day, historyArb, interval, prices, start } from '../support/scheduled-histories.js'

/**
 * A person's charge change (contract 9.3, 9.4, 17.5) against the committed counts already
 * scheduled: it sets the committed count from its date on only when it gives one; otherwise each
 * later change of the committed count stands (with the change's price and count), as the feature's
 * stored `featureCountCommitted`, which the later PATCH set, says.
 */
const test = suite('core/billing: a charge change and the scheduled committed counts')

test('after any change the committed count on each later date is the one scheduled for it, unless the change gives its own', () => {
  fc.assert(
    fc.property(historyArb, day, fc.constantFrom(...chargeChangeModes), committedArb, fc.option(interval, { nil: undefined }), (history, from, mode, own, ownInterval) => {
      const last: ServiceChargeInterval = history[history.length - 1].interval!
      const change = { from, serviceCharge: prices[2], featureCount: 2, mode, ...(own !== undefined ? { committed: own } : {}), ...(ownInterval ? { interval: ownInterval } : {}) }
      const before = effectiveHistory(history, start)
      const after = effectiveHistory(applyChange(history, change, -1), start)
      const runsBefore = layoutRuns(last, start, before)
      const runsAfter = layoutRuns(last, start, after)
      const dates = [...new Set([...history.map((v) => v.from), from, ...[0, 1, 45, 120, 400].map((n) => addDays(from, n))])].filter((t) => t >= from)
      for (const t of dates) {
        const v = versionAt(after, t)!
        assert.equal([v.serviceCharge, v.featureCount], [prices[2], 2], `values on ${t}`)
        assert.is(v.committed, own !== undefined ? own : versionAt(before, t)!.committed, `committed on ${t}`)
        // Keeping a change of the committed count lays out no period anew.
        assert.is(layoutAt(runsAfter, t).schedule.interval, ownInterval ?? layoutAt(runsBefore, t).schedule.interval, `interval on ${t}`)
      }
      if (ownInterval) return
      for (const r of runsBefore.filter((r) => r.from > from)) assert.equal(layoutAt(runsAfter, r.from).schedule, r.schedule, `layout from ${r.from}`)
    }),
    { numRuns: 500 },
  )
})

test('the audit example: committed 5 from 1 July stays under a replace of the price from 1 March', () => {
  const history: ChargeVersion[] = [
    { from: d('2026-01-01'), serviceCharge: m('10'), featureCount: 1, committed: null, series: 0, mode: 'replace' },
    { from: d('2026-07-01'), serviceCharge: m('10'), featureCount: 1, committed: 5, series: 0, mode: 'replace' },
  ]
  const after = applyChange(history, { from: d('2026-03-01'), serviceCharge: m('12'), featureCount: 1, mode: 'replace' }, 0)
  assert.equal(
    after.map((v) => [v.from, v.serviceCharge, v.committed, v.newLayout ?? false]),
    [
      [d('2026-01-01'), m('10'), null, false],
      [d('2026-03-01'), m('12'), null, false],
      [d('2026-07-01'), m('12'), 5, false],
    ],
  )
})

/** A Monthly feature from 1 January 2026 at 10.00 for one, committed 5 from 1 July, then 12.00 from 1 March. */
function scheduled(peak: boolean): World {
  const w = new World(feature({ startDate: d('2026-01-01'), committedPeak: peak }), '10.00', 1)
  w.change({ featureCountCommitted: 5, dateFrom: d('2026-07-01') })
  w.change({ serviceCharge: m('12'), dateFrom: d('2026-03-01') })
  w.bill('2026-09-30')
  return w
}
const charges = (w: World) => w.ledger.filter((r) => r.kind === 'recurring').map((r) => [r.periodStart, show(r.amount)])

test('a person\'s committed count from 1 July is billed from July under a change of price from March', () => {
  assert.equal(charges(scheduled(false)).slice(-4), [
    [d('2026-06-01'), '12.00'],
    [d('2026-07-01'), '60.00'],
    [d('2026-08-01'), '60.00'],
    [d('2026-09-01'), '60.00'],
  ])
})

test('Peak Count: a change that lowers the count from March keeps the peak a later count reached, from its own date (contract 11)', () => {
  // Count 8 from 1 July raised the committed count to 8 then; 3 from 1 March supersedes the count, not the peak.
  const w = new World(feature({ startDate: d('2026-01-01'), committedPeak: true }), '10.00', 1)
  w.change({ featureCount: 8, featureCountCommitted: 8, dateFrom: d('2026-07-01') })
  w.change({ featureCount: 3, dateFrom: d('2026-03-01') })
  w.bill('2026-08-31')
  assert.equal(charges(w).slice(-4), [
    [d('2026-05-01'), '30.00'],
    [d('2026-06-01'), '30.00'],
    [d('2026-07-01'), '80.00'],
    [d('2026-08-01'), '80.00'],
  ])
})

test('a raise Peak Count recorded, on a feature no longer under it, stands like a person\'s: the history cannot tell them apart', () => {
  // The copy `keptPeaks` writes (same price and count, the peak as committed count) is what a PATCH
  // of the committed count alone writes too; keeping both never bills below the stored count.
  const history: ChargeVersion[] = [
    { from: d('2026-01-01'), serviceCharge: m('10'), featureCount: 3, committed: 3, series: 0, mode: 'replace' },
    { from: d('2026-07-01'), serviceCharge: m('10'), featureCount: 8, committed: 8, series: 0, mode: 'replace' },
  ]
  const after = applyChange(history, { from: d('2026-03-01'), serviceCharge: m('12'), featureCount: 3, mode: 'replace' }, 0)
  assert.equal(after.map((v) => [v.from, v.featureCount, v.committed]), [
    [d('2026-01-01'), 3, 3],
    [d('2026-03-01'), 3, 3],
    [d('2026-07-01'), 3, 8],
  ])
})

test.run()
