import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isEmptyDiff, naturalKey } from '../../core/billing/ledger-row.js'
import { d, m, World, inserted, updated, throwsCode, feature } from '../support/billing-world.js'

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
