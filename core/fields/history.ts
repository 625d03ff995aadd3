import { allReadOnly, idField, stampFields } from './common.js'
import { field, ref, text } from './field.js'
import { defineResource } from './resource.js'

/**
 * Who changed what, when (contract 12): one entry per create, update, delete and action, written
 * in the transaction of the change. Read-only; `changes` is `{field: [before, after]}` as GET
 * shows the values, secrets as "[redacted]".
 */
export const history = defineResource({
  name: 'history',
  singular: 'history entry',
  table: 'history',
  fields: allReadOnly([
    idField,
    text('resource', { description: 'collection of the changed item (customers, features, ...)' }),
    ref('resourceID', { description: 'ID of the changed item' }),
    ref('customerID', { description: 'customer the item belongs to, when it has one' }),
    text('action', { description: 'create, update, delete, or the action name' }),
    field('changes', 'json', { description: '{field: [before, after]} for the fields that changed' }),
    text('apiKeyName', { description: 'name of the API key that made the change, or system' }),
    text('requestID', { description: 'X-Request-Id of the request that made it' }),
    // Never changed: updatedStamp is createdStamp (so updatedSince works here as on every list).
    ...stampFields(),
  ]),
  filters: [
    { name: 'resource', filter: { kind: 'equals', column: 'resource' }, description: 'only entries of this collection (customers, features, ...)' },
    { name: 'resourceID', filter: { kind: 'equals', column: 'resourceID' }, description: 'only entries of the item with this ID' },
    { name: 'customerID', filter: { kind: 'equals', column: 'customerID' }, description: 'only entries of this customer and its items' },
    { name: 'since', filter: { kind: 'since', column: 'createdStamp' }, description: 'only entries made at or after this datetime' },
  ],
})
