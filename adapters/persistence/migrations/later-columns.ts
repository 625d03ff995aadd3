import type { ResourceName } from '../../../core/fields/resource.js'

/**
 * Columns added to a table by a migration after the one that created it, by that migration.
 * Creating migrations build tables from today's catalogue (schema/columns.ts), so they leave
 * these out: the adding migration then finds them missing on a new database as on an old one.
 */
export const laterColumns: Readonly<Record<string, Partial<Record<ResourceName, readonly string[]>>>> = {
  '0011-billing-run-progress': { billingRuns: ['customersTotal', 'customersDone', 'estimatedCompletion'] },
  '0012-invoice-payments': {
    invoices: ['amountPaid', 'amountOutstanding', 'paidDate', 'overdueDate', 'status', 'suppressed'],
    customers: ['overdueAmount', 'heldCredit'],
    transactions: ['settles'],
  },
  '0013-credit-alerts': { customers: ['creditAlerts'] },
  '0016-invoice-messages': { invoices: ['invoiceMessage'] },
  '0018-allowances': {
    numbers: ['numberKey', 'CDRNumberKey', 'CDRNumber2Key', 'CDRNumber3Key', 'CDRNumber4Key'],
    calls: ['allowanceSeconds', 'origination', 'recorded'],
  },
  '0023-dated-charges': { tariffs: ['pendingIncrease'], features: ['annualIncreaseAnchorDate'] },
  '0024-invoice-delivery': { invoices: ['invoiceNumber', 'sentDate'] },
  '0026-number-call-vat': { numbers: ['VATRateCalls'] },
  '0027-expected-spend': { customers: ['spendAlertMonth'] },
  '0028-payment-links': { customers: ['directDebitMandate'], transactions: ['providerReference'] },
  '0030-credit-notes': { transactions: ['creditNoteID', 'creditedTransactionID'] },
  '0031-dunning': { customers: ['dunningProfile'], invoices: ['dunningSteps'], invoiceDeliveries: ['purpose'] },
  '0035-review-runs': { billingRuns: ['review'] },
  '0040-carriers': { calls: ['ignoredReason'], usageFiles: ['ignored'] },
  '0042-carrier-costs': { transactions: ['carrierCost'], calls: ['carrierCost'] },
  '0044-account-codes': { transactions: ['accountCode'] },
  '0045-call-coverage': { calls: ['callMark'], transactions: ['callsFrom', 'callsTo', 'callMark', 'callIDs'], billingRuns: ['callMark', 'callsSince'] },
  '0068-commission-credits': { creditNotes: ['commissionBillingRunID'] },
  '0070-reinstate-gaps': { features: ['dropGaps'] },
  '0074-delivery-first-attempt': { invoiceDeliveries: ['firstAttemptStamp'] },
  '0078-portal-openings': { customers: ['portalOpening'] },
  '0080-auto-topup-requests': { customers: ['autoTopupRequestedDate'] },
  '0081-contract-end-notices': {
    customers: ['contractEndNoticeDate', 'contractEndNoticeFor'],
    numbers: ['contractEndNoticeDate', 'contractEndNoticeFor'],
    services: ['contractEndNoticeDate', 'contractEndNoticeFor'],
  },
  '0083-numbers-over-credit-limit': { numbers: ['overCreditLimit'] },
  '0085-login-keys': { customers: ['accountNumberKey'], customerContacts: ['emailKey'] },
  '0086-payment-providers': { transactions: ['paymentProvider'] },
  '0088-pricing-features': { calls: ['pricingFeatureID'] },
}

/** The columns of a resource that a later migration adds. */
export function addedLater(resource: ResourceName): ReadonlySet<string> {
  return new Set(Object.values(laterColumns).flatMap((byResource) => byResource[resource] ?? []))
}
