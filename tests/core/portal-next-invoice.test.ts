import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cycleDue } from '../../core/billing/invoice-terms.js'
import { addDays, addMonths, calendarMonthsBetween, type DateOnly } from '../../core/dates/date-only.js'
import type { Customer } from '../../core/fields/entity.js'
import { nextInvoiceDate } from '../../core/portal/portal-pages.js'

const test = suite("portal: the summary's next invoice date by the billing cycle (contract 14.3, 10.1)")
const d = (s: string) => s as DateOnly
const on = (billingCycle: Customer['billingCycle']) => ({ billingCycle }) as Customer
const cycles = ['Monthly', 'Quarterly', 'Annually', null] as const
const date = fc.integer({ min: 0, max: 40 * 366 }).map((n) => addDays(d('2000-01-01'), n))

test('whole cycles from the last invoice: a month-end day does not drift', () => {
  assert.is(nextInvoiceDate(on('Monthly'), d('2026-01-31'), d('2026-03-10')), '2026-03-31')
  assert.is(nextInvoiceDate(on(null), d('2026-01-31'), d('2026-02-10')), '2026-02-28')
  assert.is(nextInvoiceDate(on('Quarterly'), d('2026-01-31'), d('2026-05-01')), '2026-07-31')
  assert.is(nextInvoiceDate(on('Annually'), d('2024-02-29'), d('2026-01-10')), '2026-02-28')
  assert.is(nextInvoiceDate(on('Annually'), d('2024-02-29'), d('2027-12-10')), '2028-02-29')
  assert.is(nextInvoiceDate(on('Monthly'), d('2026-01-31'), d('2026-01-31')), '2026-02-28', 'invoiced today: the next cycle')
  assert.is(nextInvoiceDate(on('Monthly'), undefined, d('2026-02-10')), '2026-02-28', 'none yet: the end of this month')
})

test('property: the first date a whole number of cycles after the last invoice that is not before today, and a run on it is due', () => {
  fc.assert(
    fc.property(fc.constantFrom(...cycles), date, fc.integer({ min: 0, max: 4000 }), (cycle, last, ahead) => {
      const today = addDays(last, ahead)
      const months = cycle === 'Quarterly' ? 3 : cycle === 'Annually' ? 12 : 1
      const next = nextInvoiceDate(on(cycle), last, today)
      let k = 1
      while (addMonths(last, k * months) < today) k++
      assert.is(next, addMonths(last, k * months))
      assert.ok(next >= today && next > last)
      assert.is(calendarMonthsBetween(last, next), k * months)
      assert.ok(cycleDue(cycle, last, next), 'a run on that date invoices the customer')
    }),
  )
})

test.run()
