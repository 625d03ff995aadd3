import { idField, stampFields } from './common.js'
import { amountNum, field, num, preset, ref, text } from './field.js'
import { baseTypes, roundingMethods } from '../presets/engine-lists.js'
import { defineResource } from './resource.js'
import { increaseFields, surcharges } from './tariff-fields.js'

/**
 * Call tariffs (billing-api.md, Call tariff). The `base*` money fields are Number in the
 * specification, so they are plain JSON numbers here; the rater turns them into exact money.
 * Rates per charge band live in `tariffDetails`. No lifecycle: a tariff is deleted only when unused.
 */
export const tariffs = defineResource({
  name: 'tariffs',
  singular: 'call tariff',
  table: 'tariffs',
  fields: [
    text('name', { unique: true, required: true, description: 'display name; unique among call tariffs' }),
    text('description', { description: 'notes' }),
    preset('availability', 'availabilities', { description: 'where and how the tariff can be used' }),
    preset('retail', 'retailWholesale', { description: 'retail or wholesale' }),
    preset('currency', 'currencies', { description: 'currency of rates' }),
    ref('customerID', { idRef: 'customers', description: 'customer the tariff is restricted to' }),
    text('customerGroups', { description: 'customer groups that can access it' }),
    text('forCarriers', { description: 'carriers it applies to' }),
    text('forNumberTypes', { description: 'number types it applies to' }),
    text('singleRate', { description: 'rate structure: time-based (day/evening/weekend) or one rate for all times' }),
    preset('tariffClass', 'tariffClasses', { description: 'class of calls it applies to' }),
    text('parentTariff', { idRef: 'tariffs', description: 'ID of the tariff it is based upon' }),
    preset('baseDiscountPlan', 'discountPlans'),
    preset('baseType', 'baseTypes', { values: baseTypes, description: 'how rates are calculated: per minute, per MB, per event, ...' }),
    preset('locationLookupCarrier', 'carriers', { description: 'carrier for dial string lookups and location routing' }),
    amountNum('baseCost', { description: 'standard rate when no specific rate is defined' }),
    amountNum('baseCostConnection', { description: 'connection charge per call' }),
    amountNum('baseCostMin', { description: 'minimum charge for any call' }),
    amountNum('baseCostMax', { description: 'maximum charge for any single call' }),
    amountNum('baseAccessCharge', { description: 'additional access charge' }),
    amountNum('baseAccessChargeConnection', { description: 'access charge connection component' }),
    preset('baseRoundingAccessCharge', 'roundingMethods', { values: roundingMethods, description: 'rounding of access charges' }),
    ...surcharges.flatMap(({ kind, label }) => [
      amountNum(`baseSurcharge${kind}`, { description: `surcharge for ${label}` }),
      amountNum(`baseSurcharge${kind}Connection`, { description: `connection component of the surcharge for ${label}` }),
      preset(`baseSurchargeRounding${kind}`, 'roundingMethods', { values: roundingMethods, description: `rounding of the surcharge for ${label}` }),
    ]),
    text('baseInitialCost', { description: 'cost during the initial period of a call' }),
    num('baseInitialDuration', { description: 'duration of the initial period' }),
    amountNum('baseCostSecondaryConnection', { description: 'connection cost after the initial duration' }),
    num('baseDurationMin', { description: 'shortest chargeable duration (seconds)' }),
    num('baseRoundSeconds', { description: 'round duration up to the next N seconds' }),
    num('baseRoundBytes', { description: 'round data usage up to the next N bytes' }),
    num('baseRoundEvents', { description: 'round event count up to the next N' }),
    amountNum('baseRoundPence', { description: 'round cost up to the next N pence' }),
    amountNum('baseRoundPenceAfterSurcharge', { description: 'round final cost after surcharges up to the next N pence' }),
    num('fallbackMarkupSuggested', { description: 'suggested retail markup when rates are not defined' }),
    num('fallbackMarkup', { description: 'markup when specific rates are not available' }),
    ...increaseFields('callIncreaseScopes'),
    // Base prices an increase raises from a later date (contract 17.5), as JSON: rating prices
    // calls from that date with them, and the daily job moves them into the tariff's own fields.
    field('pendingIncrease', 'text', { internal: true, readOnly: true }),
    idField,
    ...stampFields(),
  ],
})
