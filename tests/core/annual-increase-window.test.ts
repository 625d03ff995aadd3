import { suite } from 'uvu'
import fc from 'fast-check'
import * as assert from 'uvu/assert'
import { planChargeChange, type ChargeChangeParams } from '../../core/billing/charge-change.js'
import { effectiveHistory, versionAt, type ChargeVersion } from '../../core/billing/charge-history.js'
import { planFeatureBilling } from '../../core/billing/feature-billing.js'
import { applyLedgerDiff } from '../../core/billing/ledger-row.js'
import { serviceChargeIntervals } from '../../core/billing/periods.js'
import { addDays } from '../../core/dates/date-only.js'
import type { LedgerRow } from '../../core/ports/ledger.js'
import { config, d, feature, m } from '../support/billing-world.js'

/**
 * The annual increase's change (contract 11, `annualIncrease`): from its date up to the first later
 * version with a price of its own only the price changes; every version outside that window stays.
 */
const test = suite('core/billing: annual increase window')

const start = d('2025-01-01')
const prices = ['10', '20', '30'].map(m)
const day = (max: number) => fc.integer({ min: 0, max }).map((n) => addDays(start, n))
const versionArb = fc.record({
  from: day(900),
  price: fc.constantFrom(0, 1, 2),
  count: fc.integer({ min: 1, max: 3 }),
  interval: fc.option(fc.constantFrom(...serviceChargeIntervals), { nil: undefined }),
})

test('only the versions from the date up to the next price of its own take the raised price', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(0, 1, 2),
      fc.uniqueArray(versionArb, { selector: (v) => v.from, maxLength: 6 }),
      day(900),
      fc.option(day(300), { nil: null }),
      fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
      (first, later, date, billed, dropAfter) => {
        const history: ChargeVersion[] = [
          { from: start, serviceCharge: prices[first], featureCount: 1, series: 0, mode: 'replace' },
          ...later.filter((v) => v.from > start).map((v) => ({
            from: v.from,
            serviceCharge: prices[v.price],
            featureCount: v.count,
            ...(v.interval ? { interval: v.interval, newLayout: true as const } : {}),
            series: 0,
            mode: 'replace' as const,
          })),
        ]
        let ledger: LedgerRow[] = []
        let ids = 0
        if (billed) ledger = applyLedgerDiff(ledger, planFeatureBilling(feature(), history, ledger, { cutoff: billed, chargeable: true }).diff, () => String(++ids))
        // Dropped with a bill-to date on or after the increase: the job raises it, charging nothing past the bill-to date.
        const billTo = dropAfter === null ? null : addDays(date, dropAfter)
        const terms = feature(billTo ? { isDropped: true, billToDate: billTo } : {})
        const sorted = effectiveHistory(history, start)
        const old = versionAt(sorted, date)!
        const raised = m('99.99')
        const params: ChargeChangeParams = { serviceCharge: raised, dateFrom: date, chargeChangeMode: 'replace', annualIncrease: true }
        const plan = planChargeChange(params, terms, history, ledger, config)
        const after = effectiveHistory(plan.history, start)

        assert.equal(after.filter((v) => v.from < date), sorted.filter((v) => v.from < date))
        const at = versionAt(after, date)!
        assert.equal([at.from, at.serviceCharge, at.featureCount], [date, raised, old.featureCount])
        const laterBefore = sorted.filter((v) => v.from > date)
        const laterAfter = after.filter((v) => v.from > date)
        const window = laterBefore.findIndex((v) => v.serviceCharge !== old.serviceCharge)
        const end = window === -1 ? laterBefore.length : window
        assert.equal(laterAfter, [...laterBefore.slice(0, end).map((v) => ({ ...v, serviceCharge: raised })), ...laterBefore.slice(end)])
        if (billTo) assert.ok(plan.diff.insert.every((r) => r.periodStart <= billTo))
        // The same increase again changes nothing more: the job applies a date once, and its result is stable.
        assert.equal(planChargeChange(params, terms, plan.history, ledger, config).history, plan.history)
      },
    ),
    { numRuns: 300 },
  )
})

test('a version the fixed fee tariff prices ends the window', () => {
  const history: ChargeVersion[] = [
    { from: start, serviceCharge: m('10'), featureCount: 1, series: 0, mode: 'replace' },
    { from: d('2025-06-01'), serviceCharge: m('10'), featureCount: 1, tariffPriced: true, series: 0, mode: 'replace' },
  ]
  const plan = planChargeChange({ serviceCharge: m('10.5'), dateFrom: d('2025-03-01'), annualIncrease: true }, feature(), history, [], config)
  assert.equal(
    plan.history.map((v) => [v.from, v.serviceCharge, v.tariffPriced ?? false]),
    [
      [start, m('10'), false],
      [d('2025-03-01'), m('10.5'), false],
      [d('2025-06-01'), m('10'), true],
    ],
  )
})

test.run()
