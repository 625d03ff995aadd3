import { idField, stampFields } from './common.js'
import { text } from './field.js'
import { defineResource } from './resource.js'

/**
 * A destination table (contract 17.2): the prefixes a dialled number's charge band and call class
 * are looked up in. Named by a call tariff's `locationLookupCarrier`; `default` serves the rest.
 */
export const destinationTables = defineResource({
  name: 'destinationTables',
  singular: 'destination table',
  table: 'destination_tables',
  fields: [
    idField,
    text('name', { required: true, unique: true, createOnly: true, description: "the table's name: a carrier named by a call tariff's locationLookupCarrier, or `default`" }),
    text('description', { description: 'free text' }),
    ...stampFields(),
  ],
})
