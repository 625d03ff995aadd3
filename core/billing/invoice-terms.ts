import { addDays, addMonths, calendarMonthsBetween, daysInMonth, type DateOnly } from '../dates/date-only.js'
import type { Customer } from '../fields/entity.js'
import { parseMoney, ZERO, type Money } from '../money/money.js'
import type { Presets } from '../presets/presets.js'

/** The customer fields that decide when a customer is invoiced and when its invoices fall due. */
export type TermsCustomer = Pick<Customer, 'billingCycle' | 'paymentTerms' | 'paymentTermsType' | 'paymentGraceDays' | 'paymentMethod'>

const cycleMonths = { Monthly: 0, Quarterly: 3, Annually: 12 } as const

/**
 * Whether a run with invoice date `invoiceDate` invoices a customer (contract 10.1): `Monthly`
 * (or unset) every run; `Quarterly` / `Annually` when it has no invoice yet or 3 / 12 calendar
 * months have passed since its last one. A final bill is invoiced whatever the cycle (the caller).
 */
export function cycleDue(cycle: Customer['billingCycle'], lastInvoiceDate: DateOnly | null, invoiceDate: DateOnly): boolean {
  const months = cycleMonths[cycle ?? 'Monthly']
  return months === 0 || lastInvoiceDate === null || calendarMonthsBetween(lastInvoiceDate, invoiceDate) >= months
}

/** Whether a customer's cycle can leave it out of a run: only these need their last invoice date. */
export const cycleSkips = (cycle: Customer['billingCycle']): boolean => (cycle ?? 'Monthly') !== 'Monthly'

/**
 * An invoice's due date (contract 10.2): the run's due date (else the invoice date) without
 * payment terms; else the invoice date plus the terms in days, in calendar months (the 31st
 * clamps to the month's last day), or in days from the last day of the invoice date's month.
 */
export function invoiceDueDate(customer: TermsCustomer, invoiceDate: DateOnly, runDueDate: DateOnly | null): DateOnly {
  const terms = customer.paymentTerms
  if (terms === null || terms === undefined) return runDueDate ?? invoiceDate
  switch (customer.paymentTermsType ?? 'Days') {
    case 'Days':
      return lastDateAtMost(addDays(invoiceDate, terms))
    case 'Months':
      return lastDateAtMost(addMonths(invoiceDate, terms))
    case 'Days after month end': {
      const y = Number(invoiceDate.slice(0, 4))
      const m = Number(invoiceDate.slice(5, 7))
      return lastDateAtMost(addDays(`${invoiceDate.slice(0, 8)}${String(daysInMonth(y, m)).padStart(2, '0')}` as DateOnly, terms))
    }
  }
}

/** The last date the API writes (contract 2's dates have four-digit years). */
const LAST_DATE = '9999-12-31' as DateOnly

/**
 * A date past 9999-12-31 has a five-digit year, which is no API date and sorts as text before
 * every four-digit one, so an invoice raised near the end of time would be overdue at once:
 * such a date is held at the last one.
 */
const lastDateAtMost = (d: DateOnly): DateOnly => (d.length > LAST_DATE.length ? LAST_DATE : d)

/**
 * An invoice's overdue date (contract 10.3): its due date plus the customer's grace days, else
 * the grace days of its payment method (presets `paymentMethodGraceDays`), else none.
 */
export function overdueDateOf(customer: TermsCustomer, dueDate: DateOnly, presets: Pick<Presets, 'paymentMethodGraceDays'>): DateOnly {
  const grace = customer.paymentGraceDays ?? (customer.paymentMethod ? presets.paymentMethodGraceDays[customer.paymentMethod] : undefined) ?? 0
  return lastDateAtMost(addDays(dueDate, grace))
}

/**
 * A money amount from a Number field (`emptyInvoiceActionValue`, `lowInvoiceDetectValue`, ...):
 * exact for up to 4 decimals (its shortest decimal text), rounded to 4 beyond; unset is 0.
 */
export function moneyOfNumber(n: number | null | undefined): Money {
  if (n === null || n === undefined || !Number.isFinite(n)) return ZERO
  return parseMoney(n) ?? parseMoney(n.toFixed(4)) ?? ZERO
}
