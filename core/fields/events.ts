import { allReadOnly, idField, stampFields } from './common.js'
import { field, text } from './field.js'
import { defineResource } from './resource.js'

export { eventTypeOf, eventTypes, eventSubjects } from '../presets/event-types.js'

/**
 * The ordered feed of what happened (contract 12), appended in the transaction of the change
 * (an outbox): `GET /events/?idAfter=` polls it, the worker delivers it to webhooks.
 */
export const events = defineResource({
  name: 'events',
  singular: 'event',
  table: 'events',
  fields: allReadOnly([
    idField,
    text('type', { description: 'what happened: customer.created, invoice.raised, ...' }),
    field('data', 'json', { description: 'the resource as GET answers it (as it was, for a delete)' }),
    // Never changed: updatedStamp is createdStamp (so updatedSince works here as on every list).
    ...stampFields(),
  ]),
  filters: [{ name: 'type', filter: { kind: 'equals', column: 'type' }, description: 'only events of this type' }],
})
