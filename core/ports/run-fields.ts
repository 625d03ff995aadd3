import type { Call, Customer, Feature } from '../fields/entity.js'

/**
 * The stored fields a billing run reads, and only those: a full row of a feature (about 80
 * columns) or a customer (about 100) cost more to read and decode than billing the feature
 * (bench/billing-run.ts). Anything the run passes its customers or features to must read
 * nothing else: billing inputs, ledger rows, call billing (`billCalls`) and invoicing.
 */
export const runCustomerFields = [
  'id',
  'isFinalBill',
  'finalBillDate',
  'finalInvoicedDate',
  'VATRate',
  'VATRateCalls',
  'fixedFeeTariff',
  // Invoicing (contract 10.1-10.4).
  'billingCycle',
  'paymentTerms',
  'paymentTermsType',
  'paymentGraceDays',
  'paymentMethod',
  'isDropped',
  'emptyInvoiceAction',
  'emptyInvoiceActionValue',
  'lowInvoiceDetect',
  'lowInvoiceDetectValue',
  'lowInvoiceAction',
  'lowInvoiceActionValue',
  // The invoice's message (contract 10.5).
  'defaultInvoiceMessage',
  'nextInvoiceMessage',
  // Credit control (contract 10.6): whether the customer's alerts need measuring after its batch.
  'creditLimit',
  'creditLimitCalls',
  'creditLimitOverdue',
  'creditLimitUnsent',
  'creditAlerts',
  // Sending (contract 14.2): the deliveries recorded with the invoice.
  'email',
  'emailBillType',
  'postBillType',
  'faxBillType',
  'GDPRPECRConsentGiven',
  'expectedSpend',
] as const

export const runFeatureFields = [
  'id',
  'customerID',
  'numberID',
  'serviceID',
  'featureType',
  'description',
  'startDate',
  'endDate',
  'billToDate',
  'isDropped',
  'serviceChargeInterval',
  'connectionCharge',
  // The carrier's costs, written beside each charge (contract 16.2).
  'connectionChargeCarrier',
  'serviceChargeCarrier',
  'connectionTransactionType',
  // The account codes posted with each row (contract 16.4).
  'connectionTransactionCode',
  'serviceTransactionCode',
  'serviceCharge',
  'serviceTransactionType',
  'featureCount',
  'featureCountCommitted',
  'featureCountCommittedAuto',
  'committedTermDate',
  'totalFeatureValue',
  'instalments',
  // Product rules (contract 11).
  'initialFeatureDiscountScheme',
  'initialFeatureDiscountSchemeEndDate',
  'ongoingFeatureDiscountScheme',
  'ongoingFeatureDiscountSchemeEndDate',

  'chargeHistory',
  // The stretches a reinstate left uncharged (contract 5.5).
  'dropGaps',
  'VATRate',
  'fixedFeeTariff',
] as const

/** A customer as a billing run reads it (its credit held is read in the step's transaction: bill-partition.ts). */
export type RunCustomer = Pick<Customer, (typeof runCustomerFields)[number]>
/** A feature as a billing run reads it. */
export type RunFeature = Pick<Feature, (typeof runFeatureFields)[number]>

/** The stored fields of a call that call billing (`billCalls`) reads: a call row has about 40. */
export const runCallFields = ['id', 'customerID', 'numberID', 'callType', 'startTime', 'cost', 'carrierCost', 'pricingFeatureID'] as const
/** A call as a billing run reads it. */
export type RunCall = Pick<Call, (typeof runCallFields)[number]>
