import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cycleDue, invoiceDueDate, moneyOfNumber, overdueDateOf, type TermsCustomer } from '../../core/billing/invoice-terms.js'
import { addDays, calendarMonthsBetween, type DateOnly } from '../../core/dates/date-only.js'
import { defaultPresets } from '../../core/presets/presets.js'

const test = suite('invoice terms: cycles, due dates, overdue dates (contract 10.1-10.3)')
const d = (s: string) => s as DateOnly
const terms = (over: Partial<TermsCustomer> = {}): TermsCustomer => ({
  billingCycle: null,
  paymentTerms: null,
  paymentTermsType: null,
  paymentGraceDays: null,
  paymentMethod: null,
  ...over,
})

test('calendar months ignore the day of the month', () => {
  assert.is(calendarMonthsBetween(d('2026-01-31'), d('2026-04-01')), 3)
  assert.is(calendarMonthsBetween(d('2026-01-01'), d('2026-03-31')), 2)
  assert.is(calendarMonthsBetween(d('2025-11-15'), d('2026-02-01')), 3)
})

test('Monthly (or unset) every run; Quarterly and Annually after 3 and 12 calendar months, or with no invoice yet', () => {
  assert.ok(cycleDue(null, d('2026-01-31'), d('2026-01-31')))
  assert.ok(cycleDue('Monthly', d('2026-01-31'), d('2026-02-28')))
  assert.ok(cycleDue('Quarterly', null, d('2026-01-31')))
  assert.not.ok(cycleDue('Quarterly', d('2026-01-31'), d('2026-03-31')))
  assert.ok(cycleDue('Quarterly', d('2026-01-31'), d('2026-04-30')))
  assert.not.ok(cycleDue('Annually', d('2026-01-31'), d('2026-12-31')))
  assert.ok(cycleDue('Annually', d('2026-01-31'), d('2027-01-01')))
})

test('due date: the run\'s without terms; Days, Months (the 31st clamps), Days after month end', () => {
  assert.is(invoiceDueDate(terms(), d('2026-01-31'), d('2026-02-14')), '2026-02-14')
  assert.is(invoiceDueDate(terms(), d('2026-01-31'), null), '2026-01-31')
  assert.is(invoiceDueDate(terms({ paymentTerms: 14 }), d('2026-01-31'), d('2026-02-28')), '2026-02-14', 'Days is the default unit')
  assert.is(invoiceDueDate(terms({ paymentTerms: 30, paymentTermsType: 'Days' }), d('2026-12-15'), null), '2027-01-14')
  assert.is(invoiceDueDate(terms({ paymentTerms: 1, paymentTermsType: 'Months' }), d('2026-01-31'), null), '2026-02-28')
  assert.is(invoiceDueDate(terms({ paymentTerms: 1, paymentTermsType: 'Months' }), d('2028-01-31'), null), '2028-02-29')
  assert.is(invoiceDueDate(terms({ paymentTerms: 3, paymentTermsType: 'Months' }), d('2026-01-31'), null), '2026-04-30')
  assert.is(invoiceDueDate(terms({ paymentTerms: 10, paymentTermsType: 'Days after month end' }), d('2026-02-03'), null), '2026-03-10')
  assert.is(invoiceDueDate(terms({ paymentTerms: 0, paymentTermsType: 'Days after month end' }), d('2026-12-01'), null), '2026-12-31')
})

test('overdue date: own grace days, else the payment method\'s, else none', () => {
  assert.is(overdueDateOf(terms(), d('2026-02-14'), defaultPresets), '2026-02-14')
  assert.is(overdueDateOf(terms({ paymentMethod: 'Direct Debit' }), d('2026-02-14'), defaultPresets), '2026-02-17')
  assert.is(overdueDateOf(terms({ paymentMethod: 'Direct Debit', paymentGraceDays: 0 }), d('2026-02-14'), defaultPresets), '2026-02-14')
  assert.is(overdueDateOf(terms({ paymentGraceDays: 5 }), d('2026-02-27'), defaultPresets), '2026-03-04')
})

test('Days terms always land that many days on; Months terms never leave the target month', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 3650 * 2 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 36 }), (day, n, months) => {
      const date = addDays(d('2020-01-01'), day)
      assert.is(invoiceDueDate(terms({ paymentTerms: n }), date, null), addDays(date, n))
      const due = invoiceDueDate(terms({ paymentTerms: months, paymentTermsType: 'Months' }), date, null)
      assert.is(calendarMonthsBetween(date, due), months)
      assert.ok(Number(due.slice(8)) <= Number(date.slice(8)))
    }),
  )
})

test('a due or overdue date past 9999-12-31 is held at it: never a five-digit year, so never overdue at once', () => {
  for (const t of [terms({ paymentTerms: 14 }), terms({ paymentTerms: 1, paymentTermsType: 'Months' }), terms({ paymentTerms: 10, paymentTermsType: 'Days after month end' })]) {
    assert.is(invoiceDueDate(t, d('9999-12-25'), null), d('9999-12-31'))
  }
  assert.is(overdueDateOf(terms({ paymentGraceDays: 7 }), d('9999-12-30'), defaultPresets), d('9999-12-31'))
  assert.is(invoiceDueDate(terms({ paymentTerms: 5 }), d('9999-12-25'), null), d('9999-12-30'))
})

test('Number fields read as exact money', () => {
  assert.is(moneyOfNumber(12.34), 123_400n)
  assert.is(moneyOfNumber(null), 0n)
  assert.is(moneyOfNumber(0.1 + 0.2), 3_000n)
})

test.run()
