import { cascadeFields, contractEndNoticeFields, crmReference, idField, lifecycleFilters, ownerRef, stateFields, statusFields } from './common.js'
import { date, fixedFeeTariffRef, num, preset, presets, text } from './field.js'
import { defineResource } from './resource.js'

/** Services owned by customers (billing-api.md, Service). */
export const services = defineResource({
  name: 'services',
  singular: 'service',
  table: 'services',
  fields: [
    ownerRef('customerID', "owning customer's ID"),
    preset('serviceType', 'serviceTypes', { description: 'type of service' }),
    text('serviceName', { description: 'short name or reference' }),
    text('description'),
    text('site', { description: 'site provided or billed' }),
    text('campaign'),
    ...statusFields(),
    date('cancellationNoticeGivenDate', { description: 'when cancellation notice was given' }),
    date('annualIncreaseReferenceDate', { description: 'reference date for annual increases' }),
    preset('annualIncreaseProfile', 'annualIncreaseProfiles', { description: 'annual increase profile name' }),
    presets('customerProducts', 'products', { description: 'products' }),
    text('internalUse', { description: 'internal notes' }),
    crmReference(),
    preset('soldBy', 'users', { description: 'user who sold' }),
    date('soldDate'),
    date('enteredDate'),
    preset('saleType', 'saleTypes'),
    text('postcode'),
    date('contractEndDate'),
    num('provisionStatus', { description: 'internal provisioning status' }),
    preset('provider', 'providers', { description: 'provider/carrier' }),
    text('providerReference', { description: "provider's reference" }),
    text('providerServiceType', { description: 'provider-specific service type or product code' }),
    text('providerSubAccount', { description: 'provider sub-account' }),
    fixedFeeTariffRef('fixedFeeTariff', { description: 'default fixed fee tariff for features attached to the service' }),
    idField,
    // Extensions of the contract (5.1).
    ...stateFields(),
    ...cascadeFields(),
    ...contractEndNoticeFields(),
  ],
  filters: [
    ...lifecycleFilters(),
    { name: 'serviceType', filter: { kind: 'equals', column: 'serviceType' }, description: 'only services of that type' },
  ],
})
