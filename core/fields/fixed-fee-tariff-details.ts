import { idField, ownerRef, stampFields } from './common.js'
import { currency, date, presets, text } from './field.js'
import { defineResource } from './resource.js'

/**
 * Prices of a fixed fee tariff (contract 9.6). A row matches a feature by the type lists (an
 * empty list matches any); the most specific match wins.
 */
export const fixedFeeTariffDetails = defineResource({
  name: 'fixedFeeTariffDetails',
  singular: 'fixed fee tariff detail',
  table: 'fixed_fee_tariff_details',
  fields: [
    ownerRef('fixedFeeTariffID', 'fixed fee tariff the price belongs to'),
    text('description'),
    date('startDate', { description: 'first day the price applies' }),
    date('endDate', { description: 'last day the price applies (inclusive); blank for ongoing' }),
    presets('numberTypes', 'numberTypes', { description: 'number types it matches' }),
    presets('serviceTypes', 'serviceTypes', { description: 'service types it matches' }),
    presets('featureTypes', 'featureTypes', { description: 'feature types it matches' }),
    presets('transactionTypes', 'transactionTypes', { description: 'transaction types it matches' }),
    currency('connectionCharge', { description: 'one-off charge' }),
    currency('serviceCharge', { description: 'recurring charge per interval' }),
    idField,
    ...stampFields(),
  ],
})
