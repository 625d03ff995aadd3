import type { Customer } from '../fields/entity.js'
import { add, round, sub, ZERO, type Money } from '../money/money.js'
import { moneyOfNumber } from './invoice-terms.js'

/** The customer fields of the empty and low invoice rules (contract 10.4). */
export type InvoiceRulesCustomer = Pick<
  Customer,
  'emptyInvoiceAction' | 'emptyInvoiceActionValue' | 'lowInvoiceDetect' | 'lowInvoiceDetectValue' | 'lowInvoiceAction' | 'lowInvoiceActionValue'
>

/** The totals of what an invoice would take. */
export interface InvoiceTotals {
  readonly lines: number
  readonly net: Money
  readonly vat: Money
  /** Net of its `Call Charges` lines. */
  readonly calls: Money
}

/**
 * What a run does with a customer's invoice: raise it (adding a `Minimum Charge` of `minimum`
 * net first, when above zero: in pence, as a transaction is created (contract 9.1), though the
 * customer's values may carry 4 places; marked `suppressed`), or raise none and leave its
 * transactions unapproved for the next one.
 */
export type InvoiceDecision = { readonly raise: false } | { readonly raise: true; readonly minimum: Money; readonly suppressed: boolean }

const NONE: InvoiceDecision = { raise: false }
const PLAIN: InvoiceDecision = { raise: true, minimum: ZERO, suppressed: false }

/**
 * Contract 10.4. Empty (nothing to invoice): `Suppress` or unset raises none, `Send` an empty
 * invoice, `Charge Minimum` one with a `Minimum Charge` of `emptyInvoiceActionValue`. Low (the
 * detected total below `lowInvoiceDetectValue`, on an invoice whose net and total are not below zero): `Carry Forward` raises none (never for a final
 * bill), `Charge Minimum` tops the net total up to `lowInvoiceActionValue`, `Suppress` raises it
 * marked not to be sent; unset raises it as usual.
 */
export function decideInvoice(customer: InvoiceRulesCustomer, totals: InvoiceTotals, finalBill: boolean): InvoiceDecision {
  if (totals.lines === 0) {
    switch (customer.emptyInvoiceAction ?? 'Suppress') {
      case 'Suppress':
        return NONE
      case 'Send':
        return PLAIN
      case 'Charge Minimum': {
        const minimum = round(moneyOfNumber(customer.emptyInvoiceActionValue), 2)
        return minimum > 0n ? { raise: true, minimum, suppressed: false } : PLAIN
      }
    }
  }
  if (!customer.lowInvoiceDetect || !customer.lowInvoiceAction || customer.lowInvoiceDetectValue === null) return PLAIN
  // A credit invoice (refunds above charges) is not a small bill: topping it up would take back the
  // refund, carrying it forward would keep it from the held credit a refund pays out (15.3).
  if (totals.net < 0n || add(totals.net, totals.vat) < 0n) return PLAIN
  const detected =
    customer.lowInvoiceDetect === 'Net Total' ? totals.net : customer.lowInvoiceDetect === 'Gross Total' ? add(totals.net, totals.vat) : totals.calls
  if (detected >= moneyOfNumber(customer.lowInvoiceDetectValue)) return PLAIN
  switch (customer.lowInvoiceAction) {
    case 'Carry Forward':
      return finalBill ? PLAIN : NONE
    case 'Suppress':
      return { raise: true, minimum: ZERO, suppressed: true }
    case 'Charge Minimum': {
      const gap = round(sub(moneyOfNumber(customer.lowInvoiceActionValue), totals.net), 2)
      return { raise: true, minimum: gap > 0n ? gap : ZERO, suppressed: false }
    }
  }
}

/** Whether an empty invoice raises anything for this customer (only then is its last invoice looked up). */
export const emptyRaises = (customer: InvoiceRulesCustomer): boolean => (customer.emptyInvoiceAction ?? 'Suppress') !== 'Suppress'

/**
 * A number's `Call Charges Minimum` top-up: what its call charges on the invoice fall short of its
 * value, in pence (the row's amount: contract 9.1), or zero.
 */
export function callMinimumOf(value: Money, calls: Money): Money {
  const gap = round(sub(value, calls), 2)
  return gap > 0n ? gap : ZERO
}
