import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isEmptyDiff, naturalKey } from '../../core/billing/ledger-row.js'
import { effectiveHistory } from '../../core/billing/charge-history.js'
import { layoutAt, layoutRuns } from '../../core/billing/layout-runs.js'
import { periodContaining } from '../../core/billing/periods.js'
import { frozenRows } from '../../core/billing/series-runs.js'
import type { LedgerRow } from '../../core/ports/ledger.js'
import { d, m, World, inserted, updated, throwsCode, feature, show } from '../support/billing-world.js'

/** changeRecurringCharge in each mode (replace, delta, add) against approved and unapproved charges. */
const test = suite('core/billing reconcile: charge changes')

test('replace on approved charges: refund and charge the span again, a mid-period date splits', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve() // Jan, Feb, Mar at 10.00
  const diff = w.change({ serviceCharge: m('20'), dateFrom: d('2025-02-15') })
  assert.equal(inserted(diff), [
    'Recurring Charge Refund 2025-02-01..2025-02-28 -10.00',
    'Recurring Charge 2025-02-01..2025-02-14 5.00', // 10 × 14/28
    'Recurring Charge 2025-02-15..2025-02-28 10.00', // 20 × 14/28
    'Recurring Charge Refund 2025-03-01..2025-03-31 -10.00',
    'Recurring Charge 2025-03-01..2025-03-31 20.00',
  ])
  assert.equal(diff.insert.map((r) => r.revision), [0, 1, 0, 0, 1]) // the second Feb 1 and Mar 1 charge rows
  assert.is(new Set(w.ledger.map((r) => naturalKey('f1', r))).size, w.ledger.length)
  assert.ok(isEmptyDiff(w.bill('2025-03-01'))) // the next run keeps the result
  assert.ok(isEmptyDiff(w.bill(null, false)))
  assert.equal(inserted(w.bill('2025-04-01')), ['Recurring Charge 2025-04-01..2025-04-30 20.00'])
  assert.is(w.total, '65.00') // 10 + (5 + 10) + 20 + 20
})

test('replace on unapproved charges: updated in place, no refunds', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01') // ids 1, 2, 3
  const diff = w.change({ serviceCharge: m('20'), dateFrom: d('2025-02-15') })
  assert.equal(updated(diff), ['2: periodEnd=2025-02-14 amount=5.00', '3: rate=20.00 amount=20.00'])
  assert.equal(inserted(diff), ['Recurring Charge 2025-02-15..2025-02-28 10.00'])
  assert.equal(diff.delete, [])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
  assert.is(w.total, '45.00') // 10 + 5 + 10 + 20
})

test('replace defaults to the due date; a count change bills count × price', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  assert.ok(isEmptyDiff(w.change({ serviceCharge: m('20') }))) // from Apr 1: nothing charged there yet
  assert.equal(inserted(w.bill('2025-04-01')), ['Recurring Charge 2025-04-01..2025-04-30 20.00'])
  w.approve()
  const diff = w.change({ featureCount: 3, dateFrom: d('2025-04-01') })
  assert.equal(inserted(diff), ['Recurring Charge Refund 2025-04-01..2025-04-30 -20.00', 'Recurring Charge 2025-04-01..2025-04-30 60.00']) // 3 × 20.00
})

test('delta on approved charges: one adjustment row per period for the net difference', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  const up = w.change({ serviceCharge: m('20'), dateFrom: d('2025-02-15'), chargeChangeMode: 'delta' })
  assert.equal(inserted(up), [
    'Recurring Charge Adjustment 2025-02-01..2025-02-28 5.00', // (10 × 14/28 + 20 × 14/28) − 10 = 15 − 10
    'Recurring Charge Adjustment 2025-03-01..2025-03-31 10.00', // 20 − 10
  ])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
  w.approve()
  const down = w.change({ serviceCharge: m('4'), dateFrom: d('2025-03-01'), chargeChangeMode: 'delta' })
  assert.equal(inserted(down), ['Recurring Charge Adjustment Refund 2025-03-01..2025-03-31 -16.00']) // 4 − (10 + 10)
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
  assert.equal(inserted(w.bill('2025-04-01')), ['Recurring Charge 2025-04-01..2025-04-30 4.00'])
  assert.is(w.total, '33.00') // 10 + 15 + 4 + 4
})

test('delta on unapproved charges: updated in place; mixed periods', () => {
  const w = new World(feature(), '10')
  w.bill('2025-02-01')
  w.approve() // Jan, Feb approved
  w.bill('2025-03-01') // Mar unapproved, id 3
  const diff = w.change({ serviceCharge: m('20'), dateFrom: d('2025-02-15'), chargeChangeMode: 'delta' })
  assert.equal(inserted(diff), ['Recurring Charge Adjustment 2025-02-01..2025-02-28 5.00']) // 15 − 10
  assert.equal(updated(diff), ['3: rate=20.00 amount=20.00'])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
})

test('add: new charges from dateFrom, existing ones left alone, kept by later runs and changes', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  const diff = w.change({ serviceCharge: m('12'), dateFrom: d('2025-02-15'), chargeChangeMode: 'add' })
  assert.equal(inserted(diff), [
    'Recurring Charge 2025-02-15..2025-02-28 6.00', // 12 × 14/28
    'Recurring Charge 2025-03-01..2025-03-31 12.00',
  ])
  assert.equal(diff.insert.map((r) => r.series), [1, 1])
  assert.equal([diff.update, diff.delete], [[], []])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
  assert.equal(inserted(w.bill('2025-04-01')), ['Recurring Charge 2025-04-01..2025-04-30 12.00']) // series 1 only
  // a replace after it changes the new series; the frozen 10.00 rows of Feb and Mar stay
  const replace = w.change({ serviceCharge: m('15'), dateFrom: d('2025-04-01') })
  assert.equal(updated(replace), ['6: rate=15.00 amount=15.00'])
  assert.is(w.total, '63.00') // 10 + 10 + 10 + 6 + 12 + 15
})

/** "s<series> type start..end amount" of each row not frozen by a later add, as reconcile sees them. */
const live = (w: World) => {
  const versions = effectiveHistory(w.history, w.feature.startDate!)
  const layouts = layoutRuns(w.feature.interval, w.feature.startDate!, versions, w.feature.gaps)
  const frozen = frozenRows(versions, layouts)
  const slotOf = (r: LedgerRow) => periodContaining(layoutAt(layouts, r.periodStart).schedule, r.periodStart)!.start
  return w.ledger.filter((r) => !frozen(r, slotOf(r))).map((r) => `s${r.series} ${r.transactionType} ${r.periodStart}..${r.periodEnd} ${show(r.amount)}`)
}

test('add: periods laid out again over its date never stretch the older series over the days it charges again', () => {
  const added = () => {
    const w = new World(feature(), '10')
    w.bill('2025-03-01')
    w.approve() // Jan, Feb, Mar at 10.00
    w.change({ serviceCharge: m('12'), dateFrom: d('2025-02-01'), chargeChangeMode: 'add' }) // Feb, Mar again at 12.00
    w.approve()
    return w
  }
  // A change to Quarterly from Jan 15: the period Jan 15..Apr 14 holds the add's date.
  const quarterly = added()
  quarterly.change({ serviceChargeInterval: 'Quarterly', dateFrom: d('2025-01-15') })
  assert.ok(isEmptyDiff(quarterly.bill('2025-03-01')))
  assert.equal(live(quarterly), [
    's0 Recurring Charge 2025-01-01..2025-01-31 10.00',
    's1 Recurring Charge 2025-02-01..2025-02-28 12.00',
    's1 Recurring Charge 2025-03-01..2025-03-31 12.00',
    's0 Recurring Charge Refund 2025-01-01..2025-01-31 -10.00',
    's0 Recurring Charge 2025-01-01..2025-01-14 4.52', // 10 × 14/31
    's0 Recurring Charge 2025-01-15..2025-01-31 1.89', // 10 × 17/90, not the whole quarter again
    's1 Recurring Charge Refund 2025-02-01..2025-03-31 -24.00',
    's1 Recurring Charge 2025-02-01..2025-04-14 8.11', // the replace's 10 × 73/90
  ])
  // The older series' Feb and Mar rows, credited outside the platform, are neither refunded nor counted.
  assert.is(quarterly.total, '34.52') // 30 + 24 − 10 + 4.52 + 1.89 − 24 + 8.11
  // A drop billed to Jan 20 and its reinstate on Jan 25: periods run from Jan 25 (Jan 25..Feb 24).
  const cycled = added()
  cycled.drop(d('2025-01-20'))
  cycled.approve()
  cycled.reinstate(d('2025-01-25'))
  cycled.bill('2025-03-01')
  assert.equal(live(cycled).slice(-3), [
    's0 Recurring Charge 2025-01-25..2025-01-31 2.26', // 10 × 7/31: the older series stops where the add began
    's1 Recurring Charge 2025-02-01..2025-02-24 9.29', // 12 × 24/31
    's1 Recurring Charge 2025-02-25..2025-03-24 12.00',
  ])
  assert.ok(isEmptyDiff(cycled.bill('2025-03-01')))
})

test('add: a later add from an earlier day freezes the charges of the add it replaces, it does not refund them', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  w.change({ serviceCharge: m('12'), dateFrom: d('2025-02-15'), chargeChangeMode: 'add' })
  w.approve()
  const diff = w.change({ serviceCharge: m('14'), dateFrom: d('2025-02-10'), chargeChangeMode: 'add' })
  assert.equal(inserted(diff), [
    'Recurring Charge 2025-02-10..2025-02-28 9.50', // 14 × 19/28
    'Recurring Charge 2025-03-01..2025-03-31 14.00',
  ])
  assert.equal([diff.update, diff.delete], [[], []])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
})

test('changeRecurringCharge refuses bad input with invalid_charge_change, a dropped feature with state_not_allowed', () => {
  const fresh = new World(feature(), '10')
  throwsCode(() => fresh.change({ chargeChangeMode: 'swap' }), 'invalid_charge_change')
  throwsCode(() => fresh.change({ chargeChangeMode: 'add', dateFrom: d('2025-01-01') }), 'invalid_charge_change') // nothing charged yet
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  throwsCode(() => w.change({ chargeChangeMode: 'add', serviceCharge: m('12') }), 'invalid_charge_change') // no dateFrom
  throwsCode(() => w.change({ chargeChangeMode: 'add', dateFrom: d('2025-04-02') }), 'invalid_charge_change') // after dueDate Apr 1
  throwsCode(() => w.change({ chargeChangeMode: 'delta' }, { transactionTypes: ['Recurring Charge', 'Recurring Charge Adjustment'] }), 'invalid_charge_change')
  throwsCode(() => w.change({ featureCount: -1 }), 'invalid_parameter')
  w.change({ chargeChangeMode: 'add', dateFrom: d('2025-04-01'), serviceCharge: m('12') }) // on the due date: allowed
  w.drop(d('2025-03-31'))
  throwsCode(() => w.change({ serviceCharge: m('20') }), 'state_not_allowed')
})

test('a change on the day a change of interval took effect keeps the periods laid out from that day', () => {
  for (const mode of ['replace', 'add'] as const) {
    const w = new World(feature(), '10')
    w.bill('2025-02-01')
    w.approve()
    // The same interval from the 15th: periods from then on run from the 15th (contract 17.5).
    w.change({ serviceChargeInterval: 'Monthly', dateFrom: d('2025-02-15') })
    w.change({ featureCount: 2, dateFrom: d('2025-02-15'), chargeChangeMode: mode })
    w.bill('2025-03-15')
    assert.ok(w.ledger.some((r) => r.periodStart === '2025-03-15' && r.periodEnd === '2025-04-14' && r.amount === m('20')), mode)
    assert.ok(isEmptyDiff(w.bill('2025-03-15')), mode)
  }
})

test.run()
