/**
 * Preset lists whose names the engine branches on: a billing run's status, a charge interval, a
 * tariff's base type. A presets file may narrow one of them (leave a name out of use) but not add
 * a name, which the engine would not understand; the fields that name these lists carry them as
 * `values`, so their TypeScript types are these unions and a misspelt name fails to compile.
 */
/**
 * A billing run's status (contract 9.5, 16.1): a run with `review` stops at `Review` with draft
 * invoices; `Approved` finalises them (the workers pick it up as they do a requested run) and
 * ends `Complete`; `Discarded` removed them.
 */
export const billingRunStatuses = ['Pending', 'Requested', 'Running', 'Review', 'Approved', 'Complete', 'Discarded', 'Failed'] as const
export type BillingRunStatus = (typeof billingRunStatuses)[number]

/** How often a recurring charge is made; the calendar ones align periods to month starts. */
export const serviceChargeIntervals = [
  'Monthly',
  'Quarterly',
  'Annually',
  'Calendar Monthly',
  'Calendar Quarterly',
  'Calendar Annually',
] as const
export type ServiceChargeInterval = (typeof serviceChargeIntervals)[number]

/** Units of a feature's notice, minimum-term, committed-term and renewal periods. */
export const periodUnits = ['days', 'weeks', 'months', 'years'] as const
export type PeriodUnit = (typeof periodUnits)[number]

/** How a call tariff's `cost` is applied; unset means `Per Minute`. */
export const baseTypes = ['Per Minute', 'Per Second', 'Per Call', 'Per MB', 'Per Event'] as const
export type BaseType = (typeof baseTypes)[number]

/** Rounding of a tariff's surcharge and access charge components. */
export const roundingMethods = ['None', 'Round Up Penny', 'Round Nearest Penny', 'Round Up 0.1p'] as const
export type RoundingMethod = (typeof roundingMethods)[number]

/** The time bands of tariff details; `any` is a rate valid at every time. */
export const timeBands = ['day', 'evening', 'weekend', 'any'] as const
export type TimeBand = (typeof timeBands)[number]

/** What a percentage increase raises: call tariffs, then fixed fee tariffs (contract 9.6). */
export const callIncreaseScopes = ['costOnly', 'allCharges'] as const
export const fixedFeeIncreaseScopes = ['recurringOnly', 'recurringAndConnections'] as const

/** How often a customer is invoiced (contract 10.1); unset means `Monthly`. */
export const billingCycles = ['Monthly', 'Quarterly', 'Annually'] as const
export type BillingCycle = (typeof billingCycles)[number]

/** The unit of a customer's `paymentTerms` (contract 10.2); unset means `Days`. */
export const paymentTermsTypes = ['Days', 'Days after month end', 'Months'] as const
export type PaymentTermsType = (typeof paymentTermsTypes)[number]

/** What a run does for a customer with nothing to invoice (contract 10.4); unset means `Suppress`. */
export const emptyInvoiceActions = ['Suppress', 'Send', 'Charge Minimum'] as const
/** Which total decides that an invoice is low (contract 10.4). */
export const lowInvoiceDetects = ['Net Total', 'Gross Total', 'Call Charges'] as const
/** What a run does with a low invoice (contract 10.4); unset means it is raised as usual. */
export const lowInvoiceActions = ['Suppress', 'Carry Forward', 'Charge Minimum'] as const

/** An invoice's payment state (contract 10.3). */
/** `Draft`: an invoice of a run in review (contract 16.1): no number, never allocated, sent or overdue. */
export const invoiceStatuses = ['Unpaid', 'Paid', 'Overdue', 'Draft'] as const
export type InvoiceStatus = (typeof invoiceStatuses)[number]

/**
 * The credit limits a customer can exceed (contract 10.6), then the expected spends its month's
 * calls can pass (17.7), as its `creditAlerts` name them, in the order they are stored.
 */
export const creditAlertNames = ['creditLimit', 'creditLimitCalls', 'creditLimitOverdue', 'creditLimitUnsent', 'numberCreditLimit', 'expectedSpend', 'numberExpectedSpend'] as const
export type CreditAlertName = (typeof creditAlertNames)[number]

/**
 * The pages of an invoice document (contract 10.5), in the order a document shows them: the
 * renderers draw each one, so a presets file may leave pages out but not invent one.
 */
export const billPages = ['Summary', 'Charges', 'Services', 'Calls by Number', 'Calls by Type', 'Itemised Calls', 'Payments'] as const
export type BillPage = (typeof billPages)[number]

/** The layouts of an invoice document (contract 10.5): each changes layout, not content. */
export const billStyles = ['Standard', 'Detailed', 'Summary', 'Corporate'] as const
export type BillStyle = (typeof billStyles)[number]

/** The states of a disaster-recovery archive. */
export const drFileStatuses = ['Complete', 'Encrypted', 'Expired', 'Missing'] as const

/** A payment link's states (contract 15.1): `Expired` once 30 days old and still unpaid. */
export const paymentLinkStatuses = ['Open', 'Paid', 'Expired'] as const
export type PaymentLinkStatus = (typeof paymentLinkStatuses)[number]

export { eventTypes, deliveryStatuses } from './event-types.js'
import { deliveryStatuses, eventTypes } from './event-types.js'
import { billTypes, deliveryChannels, invoiceDeliveryStatuses } from './delivery-lists.js'

/** Every list above by its preset list name. */
export const engineLists: Readonly<Record<string, readonly string[]>> = {
  billingRunStatuses,
  serviceChargeIntervals,
  periodUnits,
  baseTypes,
  roundingMethods,
  timeBands,
  callIncreaseScopes,
  fixedFeeIncreaseScopes,
  drFileStatuses,
  billingCycles,
  paymentTermsTypes,
  emptyInvoiceActions,
  lowInvoiceDetects,
  lowInvoiceActions,
  invoiceStatuses,
  creditAlertNames,
  billPages,
  billStyles,
  eventTypes,
  deliveryStatuses,
  billTypes,
  deliveryChannels,
  invoiceDeliveryStatuses,
  paymentLinkStatuses,
}
