import { idField, ownerRef, stampFields } from './common.js'
import { currency, date, preset, text } from './field.js'
import { timeBands } from '../presets/engine-lists.js'
import { defineResource } from './resource.js'
import { surcharges } from './tariff-fields.js'

/**
 * Rates of a call tariff (contract 9.6): one row per charge band and time band, valid from
 * `startDate` to `endDate`. `cost` is per minute, per MB or per event by the tariff's `baseType`.
 */
export const tariffDetails = defineResource({
  name: 'tariffDetails',
  singular: 'tariff detail',
  table: 'tariff_details',
  fields: [
    ownerRef('tariffID', 'call tariff the rate belongs to'),
    text('chargeBand', { description: 'the call type the rate applies to (free text)' }),
    preset('timeBand', 'timeBands', { values: timeBands, description: 'day, evening, weekend or any' }),
    date('startDate', { description: 'first day the rate applies' }),
    date('endDate', { description: 'last day the rate applies (inclusive); blank for ongoing' }),
    currency('cost', { description: "rate per minute, MB or event, by the tariff's baseType" }),
    currency('costConnection', { description: 'connection charge per call' }),
    currency('costMin', { description: 'minimum charge for a call' }),
    currency('costMax', { description: 'maximum charge for a call' }),
    ...surcharges.flatMap(({ kind, label }) => [
      currency(`surcharge${kind}`, { description: `surcharge for ${label}` }),
      currency(`surcharge${kind}Connection`, { description: `connection component of the surcharge for ${label}` }),
    ]),
    idField,
    ...stampFields(),
  ],
})
