import { idField, ownerRef, stampFields } from './common.js'
import { text } from './field.js'
import { callClassKeys } from './call-classes.js'
import { defineResource } from './resource.js'

/**
 * One prefix of a destination table (contract 17.2): a record whose normalised dialled number
 * starts with `prefix` (and with no longer prefix of the table) takes its `chargeBand` and
 * `callClass`. Prefixes are international digits without `+` or `00` (`44`, `447`, `4477`).
 */
export const destinations = defineResource({
  name: 'destinations',
  singular: 'destination',
  table: 'destinations',
  fields: [
    idField,
    ownerRef('destinationTableID', 'destination table the prefix belongs to'),
    text('prefix', { required: true, createOnly: true, description: 'international digits the dialled number starts with, without + or 00' }),
    text('chargeBand', { required: true, description: 'the charge band records with this prefix are rated by' }),
    text('callClass', { required: true, values: callClassKeys.filter((c) => c !== 'inbound'), description: 'the call class records with this prefix take (not inbound: a destination prices a dialled number)' }),
    text('description', { description: 'free text, such as the destination name' }),
    ...stampFields(),
  ],
  filters: [{ name: 'prefix', filter: { kind: 'equals', column: 'prefix' }, description: 'only the destination with this prefix' }],
})
