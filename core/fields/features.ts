import { callClasses } from './call-classes.js'
import { cascadeFields, crmReference, idField, lifecycleFilters, ownerRef, stateFields, statusFields } from './common.js'
import { periodUnits, serviceChargeIntervals } from '../presets/engine-lists.js'
import { currency, date, each, field, fixedFeeTariffRef, num, preset, presets, tariffRef, text } from './field.js'
import { defineResource } from './resource.js'

/**
 * `<name>` and `<name>Type` (days, weeks, months, years): a period such as the notice period.
 * A term length derives a date (contract 11), which only a whole number from 1 gives: `wholeFrom: 1`.
 */
const period = <const N extends string>(name: N, description: string, length: { readonly wholeFrom?: number } = {}) => [
  num(name, { description, ...length }),
  preset(`${name}Type`, 'periodUnits', { values: periodUnits, description: 'unit: days, weeks, months, years' }),
]

/**
 * A feature's updatedDate is the date changes to its charges take effect (billing-api.md): a
 * PATCH may set it with a charge change (contract 17.5); actions maintain it otherwise.
 */
const featureStatusFields = () =>
  statusFields().map((f) =>
    f.name === 'updatedDate' ? { ...f, readOnly: false, description: 'date from which changes to charges take effect (writable with a change of a charge field)' } : f,
  )

/**
 * Billable features of a customer, number or service (billing-api.md, Feature). The owner IDs,
 * `billToDate` and the ledger-derived values are read-only (contract 2, 5.5, 6, 9.3).
 */
export const features = defineResource({
  name: 'features',
  singular: 'feature',
  table: 'features',
  fields: [
    preset('standardFeature', 'standardFeatures', { description: 'template applying standard pricing and settings' }),
    preset('featureType', 'featureTypes', { description: 'type of feature; shown on invoices if no description' }),
    num('featureCount', { wholeFrom: 0, description: 'instances provided; multiplies charges and allowances' }),
    num('featureCountCommitted', { wholeFrom: 0, description: 'minimum count billed even if the actual count drops below' }),
    preset('featureCountCommittedAuto', 'committedCountAutoModes', { description: 'automatic committed count: initial or peak' }),
    text('description', { description: 'shown on invoices instead of the feature type if given' }),
    text('site'),
    text('campaign'),
    presets('customerProducts', 'products', { description: 'products for reporting and filtering' }),
    text('internalUse', { description: 'internal notes, not visible to customers' }),
    crmReference(),
    ...featureStatusFields(),
    date('soldDate'),
    date('enteredDate'),
    date('startDate', { description: 'date active and billing begins' }),
    date('endDate', { description: 'last active date (inclusive); blank for ongoing' }),
    date('dueDate', { readOnly: true, computed: true, description: 'first day not yet charged: next recurring charge date' }),
    date('annualIncreaseReferenceDate', { description: 'reference date for annual increases' }),
    preset('annualIncreaseProfile', 'annualIncreaseProfiles', { description: 'annual increase profile name' }),
    date('cancellationNoticeGivenDate', { description: 'when cancellation notice was received' }),
    date('renewalDate', { description: 'next renewal: start + renewal length unless given; billing runs move it on past their cutoff' }),
    date('minimumTermDate', { description: 'billed until this date even if dropped earlier; start + minimum term − 1 day unless given' }),
    date('committedTermDate', { description: 'date until which the committed count applies; start + committed term − 1 day unless given' }),
    currency('totalFeatureValue', { description: 'total lifetime value' }),
    num('instalments', { description: 'instalments over which the total value is split' }),
    preset('connectionTransactionType', 'transactionTypes', { description: 'transaction type for one-off charges' }),
    currency('connectionCharge', { description: 'one-off charge applied on the start date' }),
    text('connectionTransactionCode', { description: 'code for one-off transactions' }),
    preset('serviceTransactionType', 'transactionTypes', { description: 'transaction type for recurring charges' }),
    currency('serviceCharge', { description: 'recurring charge per interval' }),
    preset('serviceChargeInterval', 'serviceChargeIntervals', { values: serviceChargeIntervals, description: 'frequency of recurring charges' }),
    text('serviceTransactionCode', { description: 'code for recurring transactions' }),
    text('callsTransactionCode', { description: 'code for call/usage transactions' }),
    preset('VATRate', 'vatRates', { description: 'VAT rate for one-off and recurring charges; customer default if unset' }),
    preset('VATRateCalls', 'vatRates', { description: 'VAT rate for call charges; customer default if unset' }),
    currency('totalValueCharged', { readOnly: true, computed: true, description: 'value charged to date (from the ledger)' }),
    currency('totalValueRemaining', {
      readOnly: true,
      computed: true,
      description: 'total feature value minus total value charged',
    }),
    preset('initialFeatureDiscountScheme', 'discountSchemes', { description: 'initial discount scheme' }),
    date('initialFeatureDiscountSchemeEndDate', { description: 'expiry of the initial discount scheme' }),
    preset('ongoingFeatureDiscountScheme', 'discountSchemes', { description: 'scheme applying after the initial one' }),
    date('ongoingFeatureDiscountSchemeEndDate', { description: 'expiry of the ongoing discount scheme' }),
    fixedFeeTariffRef('fixedFeeTariff', { description: 'fixed fee tariff, overriding customer or number defaults' }),
    ...callClasses.map((c) => tariffRef(c.tariff, { description: `${c.label} call tariff, overriding customer/number defaults` })),
    text('discountPlanAllowancePoolName', { description: 'allowance pool name' }),
    ...each(1, 4, (i) => preset(`discountPlan${i}`, 'discountPlans', { description: `discount plan ${i}` })),
    ...each(1, 4, (i) => num(`discountPlanMultiplier${i}`, { description: `allowance multiplier of discount plan ${i}` })),
    preset('carrier', 'carriers', { description: 'carrier providing the service' }),
    text('carrierProduct', { description: 'carrier product code' }),
    text('carrierProductMatches', { description: 'match pattern for carrier product codes (reconciliation)' }),
    text('carrierReference'),
    text('carrierReferenceMatches', { description: 'match pattern for carrier references' }),
    currency('connectionChargeCarrier', { description: 'one-time wholesale cost from the carrier' }),
    currency('serviceChargeCarrier', { description: 'recurring wholesale cost from the carrier' }),
    preset('soldBy', 'users', { description: 'user who sold' }),
    preset('connectionChargeCommissionProfile', 'commissionProfiles', { description: 'commission profile for one-off charges' }),
    preset('serviceChargeCommissionProfile', 'commissionProfiles', { description: 'commission profile for recurring charges' }),
    preset('callChargeCommissionProfile', 'commissionProfiles', { description: 'commission profile for call charges' }),
    preset('commissionHolder', 'users', { description: 'primary commission recipient' }),
    currency('connectionChargeCommission', { description: 'one-off commission for the primary holder' }),
    preset('connectionChargeCommissionType', 'commissionTypes', { description: 'fixed amount or percentage' }),
    currency('serviceChargeCommission', { description: 'recurring commission for the primary holder' }),
    preset('serviceChargeCommissionType', 'commissionTypes', { description: 'fixed amount or percentage' }),
    preset('commissionHolderID2', 'users', { description: 'secondary commission recipient' }),
    currency('connectionChargeCommission2', { description: 'one-off commission for the secondary holder' }),
    currency('serviceChargeCommission2', { description: 'recurring commission for the secondary holder' }),
    preset('connectionChargeCommissionType2', 'commissionTypes', { description: 'secondary holder: fixed amount or percentage' }),
    preset('serviceChargeCommissionType2', 'commissionTypes', { description: 'secondary holder: fixed amount or percentage' }),
    preset('saleType', 'saleTypes', { description: 'sale type for commission reporting' }),
    date('lastUpdatedDate', { description: 'when the most recent change took effect' }),
    text('lastUpdatedReason', { description: 'reason for the most recent change' }),
    ...period('renewalPeriodLength', 'time between renewals', { wholeFrom: 1 }),
    ...period('minimumTermPeriodLength', 'minimum contractual period', { wholeFrom: 1 }),
    ...period('committedTermPeriodLength', 'period the committed count applies', { wholeFrom: 1 }),
    ...period('noticePeriodLength', 'required cancellation notice', { wholeFrom: 0 }),
    idField,
    // Extensions of the contract (5.1, 5.5, 6).
    ownerRef('customerID', 'owning customer (always set)', { extension: true }),
    ownerRef('numberID', 'number the feature is attached to, if any', { extension: true }),
    ownerRef('serviceID', 'service the feature is attached to, if any', { extension: true }),
    date('billToDate', { readOnly: true, extension: true, description: 'charged through this date after a drop' }),
    ...stateFields(),
    ...cascadeFields(),
    // Versions of the recurring charge over time (core/billing/charge-history.ts), as JSON.
    field('chargeHistory', 'text', { internal: true, readOnly: true }),
    // The stretches a reinstate left uncharged (core/lifecycle/drop-gaps.ts), as JSON.
    field('dropGaps', 'text', { internal: true, readOnly: true }),
    // The reference date the yearly increase dates are counted from (contract 17.6), kept when the
    // job moves annualIncreaseReferenceDate on, so 29 February comes back in leap years.
    date('annualIncreaseAnchorDate', { internal: true, readOnly: true }),
  ],
  filters: [
    ...lifecycleFilters(),
    { name: 'featureType', filter: { kind: 'equals', column: 'featureType' }, description: 'only features of that type' },
  ],
})
