import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { planFeatureBilling, planLedgerDiff } from '../../core/billing/feature-billing.js'
import { ledgerWrites } from '../../core/billing/ledger-writes.js'
import { defaultPresets } from '../../core/presets/presets.js'
import { isEmptyDiff } from '../../core/billing/ledger-row.js'
import { featureBillTo } from '../../core/lifecycle/bill-to.js'
import { d, m, show, World, inserted, updated, feature } from '../support/billing-world.js'

/** Billing runs, suspension, drops, dateBillTo and reinstatement, on worked examples. */
const test = suite('core/billing reconcile: runs and drops')

test('a run inserts what is due in advance; a re-run or a smaller cutoff writes nothing', () => {
  const w = new World(feature({ totalFeatureValue: m('100') }), '10')
  assert.equal(inserted(w.bill('2025-01-01')), ['Recurring Charge 2025-01-01..2025-01-31 10.00'])
  assert.ok(isEmptyDiff(w.bill('2025-01-01')))
  assert.equal(inserted(w.bill('2025-03-01')), ['Recurring Charge 2025-02-01..2025-02-28 10.00', 'Recurring Charge 2025-03-01..2025-03-31 10.00'])
  assert.ok(isEmptyDiff(w.bill('2025-01-15'))) // charged periods are never taken back by an earlier cutoff
  const plan = planFeatureBilling(w.feature, w.history, w.ledger, { cutoff: d('2025-03-01'), chargeable: true })
  assert.is(plan.dueDate, '2025-04-01') // the day after Mar 31, the last day charged
  assert.is(show(plan.totalValueCharged), '30.00') // 3 × 10.00
  assert.is(show(plan.totalValueRemaining!), '70.00') // 100.00 − 30.00
})

test('a charge not yet invoiced takes the VAT rate in force: moved to a new rate, name and VAT; approved rows keep theirs', () => {
  const w = new World(feature(), '10')
  w.bill('2025-01-01')
  w.approve() // Jan approved
  w.bill('2025-02-01') // Feb unapproved, id 2
  // As written by the persistence layer: each row at the rate of the moment, 20%.
  w.ledger = w.ledger.map((r) => ({ ...r, VATRate: 'Standard 20%', VATAmount: m('2') }))
  const at = { cutoff: d('2025-02-01'), chargeable: true }
  assert.ok(isEmptyDiff(planLedgerDiff({ ...w.feature, VATRate: 'Standard 20%' }, w.history, w.ledger, at)))
  const diff = planLedgerDiff({ ...w.feature, VATRate: 'Reduced 5%' }, w.history, w.ledger, at)
  assert.equal([inserted(diff), updated(diff), diff.delete], [[], ['2: VATRate=Reduced 5% amount=10.00'], []])
  // Written: the row names the rate its VAT is taken at.
  const writes = ledgerWrites({ ...w.feature, id: 'f', customerID: 'c', numberID: null, serviceID: null, VATRate: 'Reduced 5%' } as never, null, diff, defaultPresets, '2025-02-01T00:00:00.000Z' as never)
  assert.equal(writes.updates.map((u) => [u.id, u.values.VATRate, show(u.values.VATAmount!)]), [['2', 'Reduced 5%', '0.50']])
  // A charge whose amount changes is taxed, and named, at the rate now, whatever reconcile was told.
  const changed = ledgerWrites({ ...w.feature, id: 'f', customerID: 'c', numberID: null, serviceID: null, VATRate: 'Reduced 5%' } as never, null, { insert: [], update: [{ id: '2', set: { amount: m('8') } }], delete: [] }, defaultPresets, '2025-02-01T00:00:00.000Z' as never)
  assert.equal(changed.updates.map((u) => [u.values.VATRate, show(u.values.VATAmount!)]), [['Reduced 5%', '0.40']])
})

test('the connection charge is written once, with the first recurring charge', () => {
  const w = new World(feature({ connectionCharge: m('49.99') }), '10', 2)
  assert.equal(inserted(w.bill('2025-01-01')), ['Connection Charge 2025-01-01..2025-01-01 99.98', 'Recurring Charge 2025-01-01..2025-01-31 20.00']) // 49.99 × 2; 10 × 2
  w.approve()
  assert.ok(isEmptyDiff(w.bill('2025-01-01')))
  assert.is(w.ledger[0].kind, 'connection')
})

test('suspension defers recurring charges; the first chargeable run back-fills every period due', () => {
  const w = new World(feature(), '10')
  assert.equal(inserted(w.bill('2025-01-01')), ['Recurring Charge 2025-01-01..2025-01-31 10.00'])
  w.approve()
  assert.ok(isEmptyDiff(w.bill('2025-02-01', false))) // suspended on the cutoff
  assert.ok(isEmptyDiff(w.bill('2025-03-01', false)))
  assert.is(w.due, '2025-02-01')
  assert.equal(inserted(w.bill('2025-04-01', true)), [
    'Recurring Charge 2025-02-01..2025-02-28 10.00',
    'Recurring Charge 2025-03-01..2025-03-31 10.00',
    'Recurring Charge 2025-04-01..2025-04-30 10.00',
  ]) // 3 × 10.00 back-filled
  assert.is(w.total, '40.00')
})

test('drop with a notice period: the unapproved last period is cut in place', () => {
  const w = new World(feature(), '30')
  w.bill('2025-03-01')
  w.approve()
  w.bill('2025-04-01') // April, unapproved (row id 4)
  const terms = { minimumTermDate: null, noticePeriodLength: 1, noticePeriodLengthType: 'months', cancellationNoticeGivenDate: null }
  const billTo = featureBillTo({ dateDrop: d('2025-03-10'), terms })
  assert.is(billTo, '2025-04-09') // Mar 10 + 1 month − 1 day
  const diff = w.drop(billTo)
  assert.equal(inserted(diff), [])
  assert.equal(updated(diff), ['4: periodEnd=2025-04-09 amount=9.00']) // Apr 1–9 = 9 of 30 days: 30 × 9/30
  assert.is(w.due, '2025-04-10')
  assert.ok(isEmptyDiff(w.bill('2025-06-01'))) // nothing after the bill-to date
  assert.is(w.total, '99.00') // 3 × 30.00 + 9.00
})

test('drop before the minimum term: charged through the term, the last period pro-rated', () => {
  const w = new World(feature(), '30')
  w.bill('2025-03-01')
  w.approve()
  const terms = { minimumTermDate: d('2025-05-20'), noticePeriodLength: null, noticePeriodLengthType: null, cancellationNoticeGivenDate: null }
  const billTo = featureBillTo({ dateDrop: d('2025-03-10'), terms })
  assert.ok(isEmptyDiff(w.drop(billTo)))
  assert.equal(inserted(w.bill('2025-06-01')), [
    'Recurring Charge 2025-04-01..2025-04-30 30.00',
    'Recurring Charge 2025-05-01..2025-05-20 19.35', // May 1–20 = 20 of 31 days: 30 × 20/31 = 19.354… → 19.35
  ])
})

test('dateBillTo in the past: approved charges after it refunded, unapproved deleted; reinstate charges again', () => {
  const w = new World(feature(), '30')
  w.bill('2025-03-01')
  w.approve() // Jan, Feb, Mar approved
  w.bill('2025-04-01') // Apr unapproved, id 4
  const diff = w.drop(d('2025-02-14'))
  assert.equal(inserted(diff), [
    'Recurring Charge Refund 2025-02-01..2025-02-28 -30.00', // Feb refunded in full…
    'Recurring Charge 2025-02-01..2025-02-14 15.00', // …and charged again through Feb 14: 30 × 14/28
    'Recurring Charge Refund 2025-03-01..2025-03-31 -30.00',
  ])
  assert.equal(diff.delete, ['4'])
  assert.is(w.total, '45.00') // 30 + (30 − 30 + 15) + (30 − 30)
  assert.is(w.due, '2025-02-15')
  assert.ok(isEmptyDiff(w.bill(null, false)))
  w.approve()
  assert.ok(isEmptyDiff(w.bill('2025-05-01')))
  // reinstated: the bill-to date goes, every period up to the cutoff is due again
  w.feature = { ...w.feature, billToDate: null, isDropped: false }
  assert.equal(inserted(w.bill('2025-04-01')), [
    'Recurring Charge Refund 2025-02-01..2025-02-28 -15.00', // Feb's approved net 30 − 30 + 15 = 15 refunded…
    'Recurring Charge 2025-02-01..2025-02-28 30.00', // …and the whole month charged
    'Recurring Charge 2025-03-01..2025-03-31 30.00', // Mar's approved net is 0: only the charge
    'Recurring Charge 2025-04-01..2025-04-30 30.00',
  ])
  assert.is(w.total, '120.00') // 4 × 30.00
})

test('a drop after a delta change still refunds with Recurring Charge Refund rows', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  w.change({ serviceCharge: m('20'), dateFrom: d('2025-03-01'), chargeChangeMode: 'delta' }) // Mar: adjustment +10.00
  w.approve()
  const diff = w.drop(d('2025-03-15'))
  assert.equal(inserted(diff), [
    'Recurring Charge Refund 2025-03-01..2025-03-31 -20.00', // Mar's approved net 10 + 10 refunded…
    'Recurring Charge 2025-03-01..2025-03-15 9.68', // …and charged through Mar 15: 20 × 15/31 = 9.677… → 9.68
  ])
  assert.ok(isEmptyDiff(w.bill('2025-04-01')))
})

test.run()
