import { billingFeature } from '../support/billing-feature.js'
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { BillingFeature } from '../../core/billing/billing-feature.js'
import { initialHistory, type ChargeVersion } from '../../core/billing/charge-history.js'
import { expectedCharges, expectedRecurring, type ExpectedCharge } from '../../core/billing/expected-charges.js'
import { periodContaining, periodsFrom, serviceChargeIntervals, type Period, type ServiceChargeInterval } from '../../core/billing/periods.js'
import { proRate } from '../../core/billing/pro-rate.js'
import { vatFor } from '../../core/billing/vat.js'
import { addDays, daysBetween, type DateOnly } from '../../core/dates/date-only.js'
import { featureBillTo } from '../../core/lifecycle/bill-to.js'
import { formatMoney, mulRatio, parseMoney, round, type Money } from '../../core/money/money.js'

const test = suite('core/billing periods')
const d = (s: string): DateOnly => s as DateOnly
const m = (s: string): Money => parseMoney(s)!
const show = (x: Money): string => formatMoney(x).slice(0, -2) // "12.3400" → "12.34"

const feature = billingFeature
const history = (f: BillingFeature, charge: string, count = 1): ChargeVersion[] => initialHistory(f.startDate!, m(charge), count)

/** "start..end qty×rate=amount" per charge, for compact worked examples. */
const lines = (cs: readonly ExpectedCharge[]): string[] =>
  cs.map((c) => `${c.periodStart}..${c.periodEnd} ${c.quantity}x${show(c.rate)}=${show(c.amount)}`)

function first(interval: ServiceChargeInterval, anchor: string, n: number): string[] {
  const out: string[] = []
  for (const p of periodsFrom({ interval, anchor: d(anchor) }, d(anchor))) {
    out.push(`${p.start}..${p.end}/${p.days}`)
    if (out.length === n) break
  }
  return out
}

test('anchored Monthly: month-end anchor keeps its day where the month has it', () => {
  // start + k months from the anchor each time (never chained): Jan 31 → Feb 28, Mar 31, Apr 30, May 31
  assert.equal(first('Monthly', '2025-01-31', 4), [
    '2025-01-31..2025-02-27/28', // Jan 31 → Feb 28 = 28 days
    '2025-02-28..2025-03-30/31', // Feb 28 → Mar 31 = 31 days
    '2025-03-31..2025-04-29/30', // Mar 31 → Apr 30 = 30 days
    '2025-04-30..2025-05-30/31', // Apr 30 → May 31 = 31 days
  ])
  // leap year: Jan 31 → Feb 29 = 29 days, Feb 29 → Mar 31 = 31 days
  assert.equal(first('Monthly', '2024-01-31', 2), ['2024-01-31..2024-02-28/29', '2024-02-29..2024-03-30/31'])
})

test('anchored Quarterly and Annually', () => {
  // Nov 30 + 3 months = Feb 28 (clamped), + 6 months = May 30 (not May 28)
  assert.equal(first('Quarterly', '2024-11-30', 2), [
    '2024-11-30..2025-02-27/90', // Dec 31 + Jan 31 + Feb 28 = 90 days to Feb 28
    '2025-02-28..2025-05-29/91', // 28 (Feb 28→Mar 28) + 31 + 30 + 2 = 91
  ])
  // Feb 29 anchor: Feb 28 in common years, Feb 29 again in 2028
  assert.equal(first('Annually', '2024-02-29', 5), [
    '2024-02-29..2025-02-27/365',
    '2025-02-28..2026-02-27/365',
    '2026-02-28..2027-02-27/365',
    '2027-02-28..2028-02-28/366', // spans Feb 29 2028
    '2028-02-29..2029-02-27/365',
  ])
})

test('calendar intervals align to the month, quarter, year; the first period keeps the full divisor', () => {
  assert.equal(first('Calendar Monthly', '2025-01-20', 2), ['2025-01-20..2025-01-31/31', '2025-02-01..2025-02-28/28'])
  // Q1 2025 = 31 + 28 + 31 = 90 days; Q2 = 30 + 31 + 30 = 91
  assert.equal(first('Calendar Quarterly', '2025-02-10', 2), ['2025-02-10..2025-03-31/90', '2025-04-01..2025-06-30/91'])
  assert.equal(first('Calendar Annually', '2024-07-01', 2), ['2024-07-01..2024-12-31/366', '2025-01-01..2025-12-31/365'])
  assert.is(periodContaining({ interval: 'Calendar Monthly', anchor: d('2025-01-20') }, d('2025-01-19')), null)
})

const day = fc.integer({ min: 0, max: 365 * 8 }).map((n) => addDays(d('2020-01-01'), n))

test('periods tile the calendar: contiguous, each date in exactly the period that holds it', () => {
  fc.assert(
    fc.property(fc.constantFrom(...serviceChargeIntervals), day, fc.integer({ min: 0, max: 800 }), (interval, anchor, offset) => {
      const s = { interval, anchor }
      const date = addDays(anchor, offset)
      const p = periodContaining(s, date)!
      if (!(p.start <= date && date <= p.end)) return false
      const ps: Period[] = []
      for (const q of periodsFrom(s, anchor)) {
        ps.push(q)
        if (q.end >= date) break
      }
      const calendar = interval.startsWith('Calendar')
      return ps.every((q, i) => {
        const length = daysBetween(q.start, q.end) + 1
        const touches = i === 0 ? q.start === anchor : q.start === addDays(ps[i - 1].end, 1)
        const divisor = i === 0 && calendar ? length <= q.days : length === q.days
        const aligned = !calendar || i === 0 || q.start.endsWith('-01')
        return touches && divisor && aligned
      })
    }),
  )
})

test('periodsFrom steps through the periods periodContaining finds, from any day (before the anchor too)', () => {
  fc.assert(
    fc.property(fc.constantFrom(...serviceChargeIntervals), day, fc.integer({ min: -60, max: 800 }), (interval, anchor, offset) => {
      const s = { interval, anchor }
      const from = addDays(anchor, offset)
      const stepped: Period[] = []
      for (const p of periodsFrom(s, from)) if (stepped.push(p) === 4) break
      const found: Period[] = []
      for (let p = periodContaining(s, from < anchor ? anchor : from); p && found.length < 4; p = periodContaining(s, addDays(p.end, 1))) found.push(p)
      assert.equal(stepped, found)
    }),
  )
})

test('proRate rounds once, half away from zero, to whole pence', () => {
  assert.is(show(proRate(m('30'), 10, 31)), '9.68') // 30 × 10/31 = 9.677… → 9.68
  assert.is(show(proRate(m('10.1234'), 31, 31)), '10.12') // whole period: 10.1234 → 10.12
  // 1.0099 × 1/2 = 0.50495 exactly → 0.50; rounding to 4 places first would give 0.5050 → 0.51
  assert.is(show(proRate(m('1.0099'), 1, 2)), '0.50')
  assert.is(show(round(mulRatio(m('1.0099'), 1, 2), 2)), '0.51')
  assert.is(show(proRate(m('-9.99'), 1, 2)), '-5.00') // -4.995 → -5.00 (away from zero)
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 10n }), fc.integer({ min: 1, max: 366 }), fc.integer({ min: 0, max: 366 }), (u, days, c) => {
      const covered = Math.min(c, days)
      const r = proRate(u as Money, covered, days)
      const exact2 = u * BigInt(covered) * 2n // compare r with the exact value u × covered / days, within half a penny
      return r % 100n === 0n && r * BigInt(days) * 2n - exact2 <= 100n * BigInt(days) && exact2 - r * BigInt(days) * 2n <= 100n * BigInt(days)
    }),
  )
})

test('vatFor: percentage of the net amount, half up to pence', () => {
  assert.is(show(vatFor(m('12.34'), '20')), '2.47') // 12.34 × 20% = 2.468 → 2.47
  assert.is(show(vatFor(m('10.05'), '17.5')), '1.76') // 10.05 × 17.5% = 1.75875 → 1.76
  assert.is(show(vatFor(m('-0.10'), '5')), '-0.01') // -0.005 → -0.01 (away from zero)
  assert.is(show(vatFor(m('99.99'), '0')), '0.00')
  assert.throws(() => vatFor(m('1'), 'twenty'), RangeError)
})

test('Monthly in advance: every period starting on or before the cutoff, no first-period pro-rating', () => {
  const f = feature({ startDate: d('2025-01-15') })
  assert.equal(lines(expectedCharges(f, history(f, '30'), d('2025-03-15'))), [
    '2025-01-15..2025-02-14 1x30.00=30.00',
    '2025-02-15..2025-03-14 1x30.00=30.00',
    '2025-03-15..2025-04-14 1x30.00=30.00', // starts on the cutoff: charged in advance
  ])
  assert.equal(expectedCharges(f, history(f, '30'), d('2025-01-14')), []) // before the start
  const c = expectedCharges(f, history(f, '30'), d('2025-01-15'))[0]
  assert.is(c.transactionDate, '2025-01-15')
  assert.is(c.kind, 'recurring')
})

test('Monthly, last period pro-rated to the end date (inclusive)', () => {
  const f = feature({ startDate: d('2025-01-15'), endDate: d('2025-03-24') })
  assert.equal(lines(expectedCharges(f, history(f, '20'), d('2025-12-31'))), [
    '2025-01-15..2025-02-14 1x20.00=20.00',
    '2025-02-15..2025-03-14 1x20.00=20.00',
    '2025-03-15..2025-03-24 1x20.00=6.45', // Mar 15–24 = 10 days of Mar 15–Apr 14 (31): 20 × 10/31 = 6.4516 → 6.45
  ])
})

test('Quarterly and Annually: whole periods from the start date', () => {
  const q = feature({ startDate: d('2025-01-31'), interval: 'Quarterly' })
  assert.equal(lines(expectedCharges(q, history(q, '45.50'), d('2025-05-01'))), [
    '2025-01-31..2025-04-29 1x45.50=45.50', // Jan 31 + 3 months = Apr 30 (clamped)
    '2025-04-30..2025-07-30 1x45.50=45.50', // Jan 31 + 6 months = Jul 31
  ])
  const a = feature({ startDate: d('2024-02-29'), interval: 'Annually', billToDate: d('2025-08-31') })
  assert.equal(lines(expectedCharges(a, history(a, '365'), d('2026-01-01'))), [
    '2024-02-29..2025-02-27 1x365.00=365.00',
    '2025-02-28..2025-08-31 1x365.00=185.00', // Feb 28–Aug 31 = 1 + (31+30+31+30+31+31) = 185 days of 365: 365 × 185/365
  ])
})

test('Calendar Monthly: first part-month pro-rated, both ends in one month', () => {
  const f = feature({ startDate: d('2025-01-20'), interval: 'Calendar Monthly' })
  assert.equal(lines(expectedCharges(f, history(f, '31'), d('2025-03-01'))), [
    '2025-01-20..2025-01-31 1x31.00=12.00', // 12 of 31 days: 31 × 12/31
    '2025-02-01..2025-02-28 1x31.00=31.00',
    '2025-03-01..2025-03-31 1x31.00=31.00',
  ])
  const both = feature({ startDate: d('2025-04-10'), endDate: d('2025-04-19'), interval: 'Calendar Monthly' })
  assert.equal(lines(expectedCharges(both, history(both, '15'), d('2025-06-01'))), [
    '2025-04-10..2025-04-19 1x15.00=5.00', // 10 of 30 days: 15 × 10/30
  ])
})

test('Calendar Quarterly and Annually: first period pro-rated, last pro-rated to the bill-to date', () => {
  const q = feature({ startDate: d('2025-02-10'), interval: 'Calendar Quarterly', billToDate: d('2025-08-15') })
  assert.equal(lines(expectedCharges(q, history(q, '90'), d('2025-12-31'))), [
    '2025-02-10..2025-03-31 1x90.00=50.00', // Feb 10–Mar 31 = 19 + 31 = 50 of Q1's 90 days: 90 × 50/90
    '2025-04-01..2025-06-30 1x90.00=90.00',
    '2025-07-01..2025-08-15 1x90.00=45.00', // Jul 1–Aug 15 = 31 + 15 = 46 of Q3's 92 days: 90 × 46/92
  ])
  const y = feature({ startDate: d('2024-07-01'), interval: 'Calendar Annually' })
  assert.equal(lines(expectedCharges(y, history(y, '366'), d('2025-01-01'))), [
    '2024-07-01..2024-12-31 1x366.00=184.00', // 184 of 366 days (2024 is leap): 366 × 184/366
    '2025-01-01..2025-12-31 1x366.00=366.00',
  ])
})

test('connection charge: once on the start date, × featureCount', () => {
  const f = feature({ connectionCharge: m('25'), startDate: d('2025-03-05') })
  const cs = expectedCharges(f, history(f, '10', 3), d('2025-03-05'))
  assert.equal(lines(cs), [
    '2025-03-05..2025-03-05 3x25.00=75.00', // 25 × 3
    '2025-03-05..2025-04-04 3x10.00=30.00', // 10 × 3
  ])
  assert.is(cs[0].kind, 'connection')
  assert.equal(expectedCharges(f, history(f, '10', 3), d('2025-03-04')), [])
  assert.equal(expectedCharges(feature({ connectionCharge: m('0') }), initialHistory(d('2025-01-01'), null, 1), d('2025-02-01')), [])
})

test('committed count: billed when larger, while the period starts on or before committedTermDate', () => {
  const always = feature({ startDate: d('2025-01-15'), featureCountCommitted: 5 })
  assert.equal(lines(expectedRecurring(always, history(always, '10', 2), d('2025-02-15'))), [
    '2025-01-15..2025-02-14 5x10.00=50.00', // max(2, 5) = 5, no term date: always
    '2025-02-15..2025-03-14 5x10.00=50.00',
  ])
  const term = feature({ startDate: d('2025-01-15'), featureCountCommitted: 5, committedTermDate: d('2025-02-14') })
  assert.equal(lines(expectedRecurring(term, history(term, '10', 2), d('2025-03-15'))), [
    '2025-01-15..2025-02-14 5x10.00=50.00', // starts Jan 15 ≤ Feb 14: committed 5
    '2025-02-15..2025-03-14 2x10.00=20.00', // starts Feb 15 > Feb 14: featureCount 2
    '2025-03-15..2025-04-14 2x10.00=20.00',
  ])
  const larger = feature({ featureCountCommitted: 5 })
  assert.equal(lines(expectedRecurring(larger, history(larger, '10', 6), d('2025-01-01'))), ['2025-01-01..2025-01-31 6x10.00=60.00'])
})

test('a charge change mid-period splits the period, each part pro-rated over the whole period', () => {
  const f = feature({ startDate: d('2025-01-01') })
  const h: ChargeVersion[] = [
    ...history(f, '10'),
    { from: d('2025-02-15'), serviceCharge: m('20'), featureCount: 1, series: 0, mode: 'replace' },
    { from: d('2025-03-01'), serviceCharge: m('20'), featureCount: 3, series: 0, mode: 'replace' },
  ]
  assert.equal(lines(expectedRecurring(f, h, d('2025-03-01'))), [
    '2025-01-01..2025-01-31 1x10.00=10.00',
    '2025-02-01..2025-02-14 1x10.00=5.00', // 10 × 14/28
    '2025-02-15..2025-02-28 1x20.00=10.00', // 20 × 14/28
    '2025-03-01..2025-03-31 3x20.00=60.00', // on a period boundary: no split
  ])
  // a version with the same price and count does not split (no rounding drift)
  const same: ChargeVersion[] = [...history(f, '10'), { from: d('2025-01-10'), serviceCharge: m('10'), featureCount: 1, series: 0, mode: 'replace' }]
  assert.equal(lines(expectedRecurring(f, same, d('2025-01-01'))), ['2025-01-01..2025-01-31 1x10.00=10.00'])
})

test('an add series: the old series keeps the whole period it was in; the new one starts pro-rated', () => {
  const f = feature({ startDate: d('2025-01-01') })
  const h: ChargeVersion[] = [...history(f, '10'), { from: d('2025-02-15'), serviceCharge: m('12'), featureCount: 1, series: 1, mode: 'add' }]
  const cs = expectedRecurring(f, h, d('2025-03-01'))
  assert.equal(lines(cs), [
    '2025-01-01..2025-01-31 1x10.00=10.00',
    '2025-02-01..2025-02-28 1x10.00=10.00', // series 0 through the end of the period holding Feb 14
    '2025-02-15..2025-02-28 1x12.00=6.00', // series 1: 12 × 14/28
    '2025-03-01..2025-03-31 1x12.00=12.00',
  ])
  assert.equal(cs.map((c) => c.series), [0, 0, 1, 1])
})

interface Drop {
  dateDrop?: string
  dateBillTo?: string
  minimumTermDate?: string
  notice?: string
  length?: number
  unit?: string
}
/** The lifecycle's bill-to rule (core/lifecycle/bill-to.ts), which sets the billToDate billing reads. */
const billTo = (x: Drop): DateOnly =>
  featureBillTo({
    dateDrop: d(x.dateDrop ?? '2025-03-10'),
    dateBillTo: x.dateBillTo ? d(x.dateBillTo) : null,
    terms: {
      minimumTermDate: x.minimumTermDate ? d(x.minimumTermDate) : null,
      noticePeriodLength: x.length ?? null,
      noticePeriodLengthType: x.unit ?? null,
      cancellationNoticeGivenDate: x.notice ? d(x.notice) : null,
    },
  })

test('bill-to date: dateBillTo, else the latest of drop date, minimum term, notice end (contract 5.5)', () => {
  assert.is(billTo({}), '2025-03-10')
  assert.is(billTo({ dateBillTo: '2025-02-01', minimumTermDate: '2026-01-01' }), '2025-02-01') // given: wins
  assert.is(billTo({ minimumTermDate: '2025-06-30' }), '2025-06-30')
  assert.is(billTo({ minimumTermDate: '2025-01-31' }), '2025-03-10') // term already over
  assert.is(billTo({ length: 1 }), '2025-04-09') // Mar 10 + 1 month − 1 day (months by default)
  // notice given Jan 20 + 30 days = Feb 19, − 1 = Feb 18; the drop date Feb 1 is earlier
  assert.is(billTo({ dateDrop: '2025-02-01', notice: '2025-01-20', length: 30, unit: 'days' }), '2025-02-18')
  assert.is(billTo({ length: 2, unit: 'weeks' }), '2025-03-23') // Mar 10 + 14 − 1
  assert.is(billTo({ length: 1, unit: 'years', minimumTermDate: '2025-12-31' }), '2026-03-09') // Mar 10 2026 − 1 beats the term
})

test.run()
