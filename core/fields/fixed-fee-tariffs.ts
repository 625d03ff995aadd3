import { idField, stampFields } from './common.js'
import { preset, presets, ref, text } from './field.js'
import { defineResource } from './resource.js'
import { increaseFields } from './tariff-fields.js'

/**
 * Fixed fee tariffs (billing-api.md, Fixed fee tariff): prices of non-usage charges. The
 * prices themselves live in `fixedFeeTariffDetails`. No lifecycle.
 */
export const fixedFeeTariffs = defineResource({
  name: 'fixedFeeTariffs',
  singular: 'fixed fee tariff',
  table: 'fixed_fee_tariffs',
  fields: [
    text('name', { unique: true, required: true, description: 'name; unique among fixed fee tariffs' }),
    text('description', { description: 'optional description' }),
    preset('availability', 'availabilities', { description: 'availability status' }),
    preset('retail', 'retailWholesale', { description: 'retail or wholesale' }),
    preset('currency', 'currencies', { description: 'currency, if different from the default' }),
    ref('customerID', { idRef: 'customers', description: 'customer it is for' }),
    text('customerGroups', { description: 'customer groups that can use it' }),
    presets('wholesaleForCarrierIDs', 'carriers', { description: 'carriers a wholesale tariff applies to' }),
    text('parentFixedFeeTariff', { idRef: 'fixedFeeTariffs', description: 'ID of the tariff it is based upon' }),
    ...increaseFields('fixedFeeIncreaseScopes'),
    idField,
    ...stampFields(),
  ],
})
