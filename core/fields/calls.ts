import { allReadOnly, idField, stampFields } from './common.js'
import { currency, field, num, preset, ref, text } from './field.js'
import { callClassKeys } from './call-classes.js'
import { originations } from './originations.js'
import { defineResource } from './resource.js'

/**
 * Call, data and event records (contract 9.6). Only usage file imports and the rater write
 * them, so every field is read-only; `DELETE /calls/<id>` sets `deleted` and the customer
 * action restoreCalls clears it.
 */
export const calls = defineResource({
  name: 'calls',
  singular: 'call',
  table: 'calls',
  fields: allReadOnly([
    idField,
    ref('customerID', { description: 'customer of the matched number' }),
    ref('numberID', { description: 'number matched by number or CDRNumber..4; null if unmatched' }),
    ref('usageFileID', { description: 'usage file the record was imported from' }),
    text('callingNumber', { description: 'originating number as in the record' }),
    text('dialledNumber', { description: 'destination number as in the record' }),
    field('startTime', 'datetime', { description: 'when the call started' }),
    num('durationSeconds', { description: 'duration in seconds, before rounding' }),
    num('bytes', { description: 'data volume, for data records' }),
    num('events', { description: 'event count, for event records' }),
    text('callType', { values: callClassKeys, description: 'call class that chooses the tariff (inbound, national, mobile, ...)' }),
    text('chargeBand', { description: 'charge band looked up in the tariff details' }),
    preset('carrier', 'carriers', { description: 'carrier that supplied the record' }),
    ref('tariffID', { description: 'call tariff that priced it; null when priced by a markup fallback' }),
    currency('cost', { description: 'price charged to the customer' }),
    currency('carrierCost', { extension: true, description: "the usage record's wholesaleCost: what the carrier charged for the call (contract 16.2)" }),
    field('rated', 'boolean', { description: 'whether a cost has been worked out' }),
    text('unbilledReason', { description: 'why the call could not be rated or billed' }),
    // Derived, not stored: the Call Charges row whose range covers the call (docs/scaling.md), so a run never rewrites its calls.
    ref('transactionID', { computed: true, description: 'Call Charges transaction that billed it' }),
    field('deleted', 'boolean', { description: 'deleted calls are not billed until restored' }),
    ...stampFields(),
    field('ratedDuration', 'number', { description: 'duration charged after rounding and minimum, seconds' }),
    text('timeBand', { description: 'day, evening, weekend or any' }),
    num('allowanceSeconds', { description: 'seconds of the rated duration a discount plan allowance covered (charged: ratedDuration minus these); null when no plan covers the call' }),
    text('origination', { values: originations, description: 'fixed, mobile, payphone or voip: as in the record, or the CDR number it matched through says' }),
    field('recorded', 'boolean', { description: 'whether the record says the call was recorded' }),
    text('ignoredReason', { values: ['carrier'], description: "why the call is kept but never billed: `carrier` when the number's carrierCallAllocation names another carrier (contract 17.1)" }),
    // The call-marks counter when the call last became billable (imported, rated, restored): a run
    // bills the calls marked below its own mark, and a Call Charges row covers only those (call-marks.ts).
    field('callMark', 'number', { internal: true }),
    // Hash of the record's canonical form: the same record sent twice is stored once.
    field('fingerprint', 'text', { internal: true, unique: true }),
    // The feature whose tariff priced the call, as rating found it (null: the number's or the
    // customer's tariff, or the markups alone): its Call Charges row takes that feature's
    // VATRateCalls (contract 17.7), whatever the features are when it is billed (call-vat-rates.ts).
    field('pricingFeatureID', 'id', { internal: true }),
  ]),
  filters: [
    { name: 'rated', filter: { kind: 'value', column: 'rated', type: 'boolean' }, description: 'true: rated calls; false: unrated ones' },
    { name: 'deleted', filter: { kind: 'value', column: 'deleted', type: 'boolean' }, description: 'true: deleted calls; false: the others' },
    { name: 'chargeBand', filter: { kind: 'equals', column: 'chargeBand' }, description: 'only calls of that charge band' },
    { name: 'startedSince', filter: { kind: 'since', column: 'startTime' }, description: 'calls started at or after this datetime' },
  ],
})
