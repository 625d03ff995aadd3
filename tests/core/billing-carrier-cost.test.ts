import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { d, feature, m, show, World } from '../support/billing-world.js'

/** Worked examples of contract 16.2: the carrier's cost beside each charge, amounts by hand. */
const test = suite('core/billing carrier cost')

const rows = (w: World): string[] => w.ledger.map((r) => `${r.transactionType} ${r.periodStart}..${r.periodEnd} ${show(r.amount)} cost ${show(r.carrierCost)}`)

test('a half-month feature with a carrier cost, refunded on drop', () => {
  // Calendar Monthly from 16 January: 16 of January's 31 days. 31.00 × 16 / 31 = 16.00 charged;
  // the carrier's 12.40 × 16 / 31 = 6.40 beside it. The 5.00 connection costs the carrier 2.50.
  const w = new World(feature({ startDate: d('2025-01-16'), interval: 'Calendar Monthly', connectionCharge: m('5'), connectionChargeCarrier: m('2.5'), serviceChargeCarrier: m('12.4') }), '31')
  w.bill('2025-01-20')
  assert.equal(rows(w), ['Connection Charge 2025-01-16..2025-01-16 5.00 cost 2.50', 'Recurring Charge 2025-01-16..2025-01-31 16.00 cost 6.40'])
  w.approve()
  // Dropped with bill-to 23 January: 8 days are due (8.00, cost 3.20); the approved 16.00 and
  // its 6.40 cost are refunded whole and the 8 days charged again.
  w.drop(d('2025-01-23'))
  assert.equal(rows(w).slice(2), ['Recurring Charge Refund 2025-01-16..2025-01-31 -16.00 cost -6.40', 'Recurring Charge 2025-01-16..2025-01-23 8.00 cost 3.20'])
  const net = w.ledger.filter((r) => r.kind === 'recurring').reduce((a, r) => a + r.carrierCost, 0n)
  assert.is(show(net as never), '3.20')
})

test('a delta change carries the difference of the cost in its adjustment', () => {
  const w = new World(feature({ startDate: d('2025-01-01'), serviceChargeCarrier: m('4') }), '10', 1)
  w.bill('2025-01-01')
  w.approve()
  w.change({ chargeChangeMode: 'delta', dateFrom: d('2025-01-01'), serviceCharge: m('10'), featureCount: 3 })
  // 3 × 10.00 − 10.00 approved = 20.00; the cost 3 × 4.00 − 4.00 = 8.00.
  assert.equal(rows(w).slice(1), ['Recurring Charge Adjustment 2025-01-01..2025-01-31 20.00 cost 8.00'])
})

test.run()
