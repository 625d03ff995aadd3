import { readFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { increaseDates, increasedCharge } from '../../core/billing/annual-increases.js'
import type { BillingFeature } from '../../core/billing/billing-feature.js'
import { discountsOf, type DiscountFields } from '../../core/billing/discounts.js'
import { instalmentAt } from '../../core/billing/instalments.js'
import type { LedgerRow } from '../../core/ports/ledger.js'
import { addPeriod, toPeriodUnit } from '../../core/dates/add-period.js'
import { derivedFeatureValues, rolledRenewalDate } from '../../core/features/feature-terms.js'
import { checkStandardFeatures } from '../../core/features/standard-feature.js'
import { withStandardFeature } from '../../core/features/standard-feature.js'
import type { Item } from '../../core/fields/item.js'
import { formatMoney } from '../../core/money/money.js'
import { defaultPresets, mergePresets } from '../../core/presets/presets.js'
import type { DiscountScheme } from '../../core/presets/product-maps.js'
import { d, feature, m, show, World } from '../support/billing-world.js'

/** Contract 11's rules worked by hand: each expected amount is computed in the comment beside it. */
const test = suite('core/product rules')

const schemes: Record<string, DiscountScheme> = {
  ...defaultPresets.featureDiscountSchemes,
  'Ten Forever': { percent: m('10'), amount: null, months: null },
  'Five Off': { percent: null, amount: m('5'), months: null },
  'Twenty Off': { percent: null, amount: m('20'), months: null },
  'Ten Two Months': { percent: m('10'), amount: null, months: 2 },
}

function discounted(f: Partial<BillingFeature>, fields: Partial<DiscountFields>): BillingFeature {
  const base = feature(f)
  const all: DiscountFields = {
    startDate: base.startDate,
    initialFeatureDiscountScheme: null,
    initialFeatureDiscountSchemeEndDate: null,
    ongoingFeatureDiscountScheme: null,
    ongoingFeatureDiscountSchemeEndDate: null,
    ...fields,
  }
  return { ...base, discounts: discountsOf(all, schemes) }
}

/** "type start amount" of each recurring row, in ledger order. */
const rows = (ledger: readonly LedgerRow[]): string[] =>
  ledger.filter((r) => r.kind === 'recurring').map((r) => `${r.transactionType} ${r.periodStart} ${show(r.amount)}`)

test('First Month Free from 31 January: one period free, the next starts 28 February', () => {
  // 100% for 1 month: through 31 Jan + 1 month − 1 day = 27 Feb; 2 × 12.50 = 25.00 a period.
  const w = new World(discounted({ startDate: d('2025-01-31') }, { initialFeatureDiscountScheme: 'First Month Free' }), '12.50', 2)
  w.bill('2025-03-31')
  assert.equal(rows(w.ledger), [
    'Recurring Charge 2025-01-31 25.00',
    'Recurring Charge Discount 2025-01-31 -25.00',
    'Recurring Charge 2025-02-28 25.00',
    'Recurring Charge 2025-03-31 25.00',
  ])
  assert.is(w.total, '50.00')
})

test('a discount ending mid-period covers the whole period that starts before its end', () => {
  // 10% of 30.00 = 3.00 for the periods starting 1 Jan and 1 Feb (on or before 14 Feb), not 1 Mar.
  const w = new World(discounted({}, { initialFeatureDiscountScheme: 'Ten Forever', initialFeatureDiscountSchemeEndDate: d('2025-02-14') }), '30.00')
  w.bill('2025-03-01')
  assert.equal(rows(w.ledger).filter((r) => r.includes('Discount')), ['Recurring Charge Discount 2025-01-01 -3.00', 'Recurring Charge Discount 2025-02-01 -3.00'])
  assert.is(w.total, '84.00') // 3 × 30.00 − 6.00
})

test('a percentage is taken of the pro-rated first calendar period', () => {
  // 10 Jan..31 Jan is 22 of 31 days: 31.00 × 22/31 = 22.00, less 10% = 2.20; February 31.00 less 3.10.
  const w = new World(discounted({ startDate: d('2025-01-10'), interval: 'Calendar Monthly' }, { initialFeatureDiscountScheme: 'Ten Forever' }), '31.00')
  w.bill('2025-02-01')
  assert.equal(rows(w.ledger), [
    'Recurring Charge 2025-01-10 22.00',
    'Recurring Charge Discount 2025-01-10 -2.20',
    'Recurring Charge 2025-02-01 31.00',
    'Recurring Charge Discount 2025-02-01 -3.10',
  ])
})

test('a scheme of 12 months from 29 February 2024 ends on 27 February 2025', () => {
  // Annual periods: 29 Feb 2024..27 Feb 2025 and from 28 Feb 2025; 10% of 120.00 on the first only.
  const w = new World(discounted({ startDate: d('2024-02-29'), interval: 'Annually' }, { initialFeatureDiscountScheme: '10% First Year' }), '120.00')
  w.bill('2025-03-01')
  assert.equal(rows(w.ledger), [
    'Recurring Charge 2024-02-29 120.00',
    'Recurring Charge Discount 2024-02-29 -12.00',
    'Recurring Charge 2025-02-28 120.00',
  ])
})

test('an amount comes off each unit, never more than the unit price', () => {
  // 3 × 12.50 = 37.50; 5.00 off each unit = 15.00; 20.00 off each is capped at 12.50 each = 37.50.
  const five = new World(discounted({}, { initialFeatureDiscountScheme: 'Five Off' }), '12.50', 3)
  five.bill('2025-01-01')
  assert.equal(rows(five.ledger), ['Recurring Charge 2025-01-01 37.50', 'Recurring Charge Discount 2025-01-01 -15.00'])
  const twenty = new World(discounted({}, { initialFeatureDiscountScheme: 'Twenty Off' }), '12.50', 3)
  twenty.bill('2025-01-01')
  assert.equal(rows(twenty.ledger), ['Recurring Charge 2025-01-01 37.50', 'Recurring Charge Discount 2025-01-01 -37.50'])
})

test('an amount discount is per unit per period, pro-rated like its charge (a reading contract 17.6 keeps)', () => {
  // A Calendar Monthly first period of 16 of January's 31 days: 3 × 12.50 × 16/31 = 19.354… → 19.35;
  // 5.00 off each of 3 units, pro-rated alike: 15.00 × 16/31 = 7.741… → 7.74.
  const w = new World(discounted({ startDate: d('2025-01-16'), interval: 'Calendar Monthly' }, { initialFeatureDiscountScheme: 'Five Off' }), '12.50', 3)
  w.bill('2025-01-31')
  assert.equal(rows(w.ledger), ['Recurring Charge 2025-01-16 19.35', 'Recurring Charge Discount 2025-01-16 -7.74'])
})

test('instalments ignore featureCount: totalFeatureValue is the whole value (a reading contract 17.6 keeps)', () => {
  const w = new World(feature({ instalments: { count: 3, total: m('300.00') } }), null, 2)
  w.bill('2025-04-01')
  assert.equal(rows(w.ledger), ['Recurring Charge 2025-01-01 100.00', 'Recurring Charge 2025-02-01 100.00', 'Recurring Charge 2025-03-01 100.00'])
})

test('the ongoing scheme starts the day after the initial one ends and lasts its months', () => {
  // Initial 100% through 31 Jan; ongoing 10% from 1 Feb through 1 Feb + 2 months − 1 day = 31 Mar.
  const f = discounted({}, { initialFeatureDiscountScheme: 'First Month Free', ongoingFeatureDiscountScheme: 'Ten Two Months' })
  const w = new World(f, '20.00')
  w.bill('2025-04-01')
  assert.equal(rows(w.ledger).filter((r) => r.includes('Discount')), [
    'Recurring Charge Discount 2025-01-01 -20.00',
    'Recurring Charge Discount 2025-02-01 -2.00',
    'Recurring Charge Discount 2025-03-01 -2.00',
  ])
  assert.is(w.total, '56.00') // 4 × 20.00 − 24.00
})

test('an initial scheme of None with no end is no scheme: the ongoing one applies from the start; with an end date it holds its span', () => {
  const none = discounted({}, { initialFeatureDiscountScheme: 'None', ongoingFeatureDiscountScheme: 'Ten Forever' })
  assert.equal(none.discounts.map((d) => [d.from, d.through, show(d.percent!)]), [['2025-01-01', null, '10.00']])
  const held = discounted({}, { initialFeatureDiscountScheme: 'None', initialFeatureDiscountSchemeEndDate: d('2025-02-28'), ongoingFeatureDiscountScheme: 'Ten Forever' })
  assert.equal(held.discounts.map((d) => [d.from, d.through]), [['2025-03-01', null]])
})

test('an approved discounted period cut short by a drop is refunded net and charged again with its discount', () => {
  // January approved: 30.00 − 3.00 = 27.00. Billed to 15 Jan: 30.00 × 15/31 = 14.516… → 14.52, 10% → 1.45.
  const w = new World(discounted({}, { initialFeatureDiscountScheme: 'Ten Forever' }), '30.00')
  w.bill('2025-01-01')
  w.approve()
  w.drop(d('2025-01-15'))
  assert.equal(rows(w.ledger.filter((r) => !r.approved)), [
    'Recurring Charge Refund 2025-01-01 -27.00',
    'Recurring Charge 2025-01-01 14.52',
    'Recurring Charge Discount 2025-01-01 -1.45',
  ])
  assert.is(w.total, '13.07')
})

test('instalments: the total over 3 periods, the last takes the remainder, then nothing', () => {
  // 1000.00 / 3 = 333.333… → 333.33, 333.33, and 1000.00 − 666.66 = 333.34.
  const plan = { count: 3, total: m('1000.00') }
  assert.equal([0, 1, 2, 3].map((k) => instalmentAt(plan, k)).map((x) => (x === null ? null : show(x))), ['333.33', '333.33', '333.34', null])
  const w = new World(feature({ startDate: d('2025-01-15'), totalFeatureValue: m('1000.00'), instalments: plan }), null)
  w.bill('2025-06-30')
  assert.equal(rows(w.ledger), ['Recurring Charge 2025-01-15 333.33', 'Recurring Charge 2025-02-15 333.33', 'Recurring Charge 2025-03-15 333.34'])
  assert.is(w.total, '1000.00')
  assert.is(w.due, d('2025-04-15'))
})

test('instalments: a short first calendar period charges a whole instalment; a drop pro-rates the one it cuts', () => {
  const calendar = new World(feature({ startDate: d('2025-01-15'), interval: 'Calendar Monthly', instalments: { count: 2, total: m('100.00') } }), null)
  calendar.bill('2025-03-31')
  assert.equal(rows(calendar.ledger), ['Recurring Charge 2025-01-15 50.00', 'Recurring Charge 2025-02-01 50.00'])
  // 300.00 in 3 from 1 Jan, billed to 14 Feb: February is 14 of 28 days of 100.00 = 50.00; March goes.
  const dropped = new World(feature({ instalments: { count: 3, total: m('300.00') } }), null)
  dropped.bill('2025-03-01')
  dropped.drop(d('2025-02-14'))
  assert.equal(rows(dropped.ledger), ['Recurring Charge 2025-01-01 100.00', 'Recurring Charge 2025-02-01 50.00'])
})

test('Peak Count bills the highest count in force by each period start; a plain committed count would not', () => {
  // 10.00 a unit: count 5, 10 from 1 Mar, 7 from 1 May. Peak: 5, 5, 10, 10, 10, 10 units.
  const monthly = (peak: boolean) => {
    const w = new World(feature({ committedPeak: peak }), '10.00', 5)
    w.change({ featureCount: 10, dateFrom: d('2025-03-01') })
    w.change({ featureCount: 7, dateFrom: d('2025-05-01') })
    w.bill('2025-06-01')
    return rows(w.ledger).map((r) => r.split(' ').at(-1))
  }
  assert.equal(monthly(true), ['50.00', '50.00', '100.00', '100.00', '100.00', '100.00'])
  assert.equal(monthly(false), ['50.00', '50.00', '100.00', '100.00', '70.00', '70.00'])
})

test('term dates: lengths give dates, the last day of a term is the day before its anniversary', () => {
  assert.is(addPeriod(d('2025-01-31'), 1, 'months'), d('2025-02-28'))
  assert.is(addPeriod(d('2024-02-29'), 1, 'years'), d('2025-02-28'))
  assert.is(addPeriod(d('2025-01-01'), 2, 'weeks'), d('2025-01-15'))
  assert.is(addPeriod(d('2025-01-01'), 36, toPeriodUnit(null)), d('2028-01-01'))
  const created = derivedFeatureValues(
    { startDate: d('2025-01-31'), minimumTermPeriodLength: 36, minimumTermPeriodLengthType: 'months', committedTermPeriodLength: 12, renewalPeriodLength: 1, renewalPeriodLengthType: 'years', committedTermDate: d('2025-06-30') },
    null,
  )
  // 31 Jan 2025 + 36 months = 31 Jan 2028, less a day; a given committedTermDate wins; renewal on the anniversary.
  assert.equal(created, { minimumTermDate: d('2028-01-30'), renewalDate: d('2026-01-31') })
  const stored = { id: '1', startDate: d('2025-01-31'), minimumTermPeriodLength: 36, minimumTermPeriodLengthType: 'months', minimumTermDate: d('2028-01-30') } as Item
  // A new start moves a derived date; a date a person set stays.
  assert.equal(derivedFeatureValues({ startDate: d('2025-03-01') }, stored), { minimumTermDate: d('2028-02-29') })
  assert.equal(derivedFeatureValues({ startDate: d('2025-03-01') }, { ...stored, minimumTermDate: d('2029-12-31') } as Item), {})
})

test('renewal dates roll forward by their length while before the cutoff', () => {
  const f = { renewalDate: d('2024-01-31'), renewalPeriodLength: 6, renewalPeriodLengthType: 'months' }
  // 31 Jan 2024 → 31 Jul 2024 → 31 Jan 2025 → 31 Jul 2025 (the first on or after 1 Mar 2025).
  assert.is(rolledRenewalDate(f, d('2025-03-01')), d('2025-07-31'))
  assert.is(rolledRenewalDate(f, d('2024-01-31')), null)
  assert.is(rolledRenewalDate({ ...f, renewalPeriodLength: null }, d('2025-03-01')), null)
})

test('renewal dates of months and years are counted from the start date, so a month end or 29 February does not drift', () => {
  const monthly = { startDate: d('2026-01-31'), renewalDate: d('2026-02-28'), renewalPeriodLength: 1, renewalPeriodLengthType: 'months' }
  assert.is(rolledRenewalDate(monthly, d('2026-03-10')), d('2026-03-31'))
  assert.is(rolledRenewalDate({ ...monthly, renewalDate: d('2026-03-31') }, d('2026-04-15')), d('2026-04-30'))
  assert.is(rolledRenewalDate(monthly, d('2026-06-01')), d('2026-06-30'))
  const leap = { startDate: d('2024-02-29'), renewalDate: d('2025-02-28'), renewalPeriodLength: 1, renewalPeriodLengthType: 'years' }
  assert.is(rolledRenewalDate(leap, d('2026-03-01')), d('2027-02-28'))
  assert.is(rolledRenewalDate({ ...leap, renewalDate: d('2027-02-28') }, d('2027-03-01')), d('2028-02-29'))
  // A date a person set off the start's count is counted from itself.
  assert.is(rolledRenewalDate({ ...monthly, renewalDate: d('2026-02-15') }, d('2026-03-20')), d('2026-04-15'))
})

test('committed count: Initial Count on create, Peak Count only ever rises', () => {
  assert.equal(derivedFeatureValues({ featureCountCommittedAuto: 'Initial Count', featureCount: 4 }, null), { featureCountCommitted: 4 })
  assert.equal(derivedFeatureValues({ featureCountCommittedAuto: 'Initial Count', featureCount: 4, featureCountCommitted: 2 }, null), {})
  const peak = { id: '1', featureCountCommittedAuto: 'Peak Count', featureCount: 4, featureCountCommitted: 4 } as Item
  assert.equal(derivedFeatureValues({ featureCount: 6 }, peak), { featureCountCommitted: 6 })
  assert.equal(derivedFeatureValues({ featureCount: 2 }, { ...peak, featureCount: 6, featureCountCommitted: 6 } as Item), {})
  assert.equal(derivedFeatureValues({ featureCount: 6 }, { ...peak, featureCountCommittedAuto: 'None' } as Item), {})
})

test('annual increases: yearly dates from the reference date, 29 February kept in leap years; prices half up to 4 places', () => {
  assert.equal(increaseDates(d('2024-02-29'), d('2026-11-25')), { due: [d('2024-02-29'), d('2025-02-28'), d('2026-02-28')], next: d('2027-02-28') })
  assert.equal(increaseDates(d('2027-04-01'), d('2026-11-25')), { due: [], next: d('2027-04-01') })
  // Moved on by a job that kept its anchor: 29 February comes back in the leap year (contract 17.6).
  assert.equal(increaseDates(d('2027-02-28'), d('2028-03-01'), d('2024-02-29')), { due: [d('2027-02-28'), d('2028-02-29')], next: d('2029-02-28') })
  // A date a person set, not one of the anchor's yearly dates, starts its own count.
  assert.equal(increaseDates(d('2027-02-27'), d('2028-03-01'), d('2024-02-29')), { due: [d('2027-02-27'), d('2028-02-27')], next: d('2029-02-27') })
  const p = defaultPresets.annualIncreaseProfiles
  assert.is(formatMoney(increasedCharge(m('12.50'), p['Fixed 5%'])), '13.1250') // 12.50 × 1.05
  assert.is(formatMoney(increasedCharge(m('10.00'), p['CPI + 3.9%'])), '10.7700') // CPI 3.8 + 3.9 = 7.7%
  assert.is(formatMoney(increasedCharge(m('10.00'), p['Fixed £ Increase'])), '11.0000')
  assert.is(formatMoney(increasedCharge(m('0.3333'), p['Fixed 5%'])), '0.3500') // 0.349965 → 0.3500
})

test('presets: maps are validated and a bad entry is named', () => {
  assert.throws(() => mergePresets({ featureDiscountSchemes: { None: { percent: '0' }, Silly: { percent: '150' } } }), /featureDiscountSchemes\.Silly/)
  assert.throws(() => mergePresets({ extend: { discountSchemes: ['Summer'] } }), /discountSchemes names "Summer" but featureDiscountSchemes has no entry/)
  assert.throws(() => mergePresets({ lists: { standardFeatures: ['Seat', 'Desk'] }, standardFeatures: { Seat: {} } }), /standardFeatures names "Desk"/)
  assert.equal(mergePresets({ standardFeatures: { Seat: {} } }).lists.standardFeatures, ['Seat'])
  assert.throws(() => mergePresets({ annualIncreaseProfiles: { Odd: { percent: 'cpi', amount: '1' } } }), /annualIncreaseProfiles\.Odd/)
  assert.throws(() => mergePresets({ cpi: 'high' }), /cpi/)
  assert.throws(() => checkStandardFeatures(mergePresets({ standardFeatures: { Seat: { serviceCharge: 'twelve' } } })), /standardFeatures\.Seat.*serviceCharge/)
  assert.throws(() => checkStandardFeatures(mergePresets({ standardFeatures: { Seat: { colour: 'red' } } })), /standardFeatures\.Seat.*colour/)
  assert.ok(checkStandardFeatures(defaultPresets))
  // A new CPI moves the CPI profiles; the maps' names join their lists.
  const p = mergePresets({ cpi: '2.0', extend: { discountSchemes: ['Spring'] }, featureDiscountSchemes: { ...Object.fromEntries(defaultPresets.lists.discountSchemes.map((n) => [n, { percent: '0' }])), Spring: { amount: '2.50', months: 3 } } })
  assert.is(show(increasedCharge(m('10.00'), p.annualIncreaseProfiles['CPI + 3.9%'])), '10.59')
  assert.ok(p.lists.discountSchemes.includes('Spring'))
  assert.equal(p.featureDiscountSchemes.Spring, { percent: null, amount: m('2.50'), months: 3 })
})

test("the README's presets example of the maps is a valid presets file", () => {
  const readme = readFileSync('README.md', 'utf8')
  const block = /Four maps carry[\s\S]*?```json\n([\s\S]*?)\n```/.exec(readme)
  assert.ok(block, 'the README shows the maps')
  const p = checkStandardFeatures(mergePresets(JSON.parse(block[1])))
  assert.equal(p.lists.discountSchemes, ['None', 'First Month Free', '£5 Off'])
  assert.equal(p.featureDiscountSchemes['£5 Off'], { percent: null, amount: m('5.00'), months: null })
})

test('a standard feature fills what the request does not give, and only that', () => {
  const templates = { Seat: { featureType: 'Hosted Seat', serviceCharge: '12.50', connectionCharge: '25' } }
  assert.equal(withStandardFeature({ standardFeature: 'Seat', serviceCharge: '10.00', connectionCharge: null }, templates), {
    featureType: 'Hosted Seat',
    serviceCharge: '10.00',
    connectionCharge: null,
    standardFeature: 'Seat',
  })
  assert.equal(withStandardFeature({ standardFeature: 'Unknown' }, templates), { standardFeature: 'Unknown' })
  assert.equal(withStandardFeature([1], templates), [1])
})

test.run()
