import { allReadOnly, idField, stampFields } from './common.js'
import { field, num, ref, stamp, text } from './field.js'
import { defineResource } from './resource.js'
import { deliveryStatuses } from '../presets/engine-lists.js'


/** One event for one webhook, with its attempts (contract 12: `GET /webhooks/<id>/deliveries/`). */
export const webhookDeliveries = defineResource({
  name: 'webhookDeliveries',
  singular: 'webhook delivery',
  table: 'webhook_deliveries',
  fields: allReadOnly([
    idField,
    ref('webhookID', { description: 'webhook delivered to' }),
    ref('eventID', { description: 'event delivered' }),
    text('eventType', { description: 'the event type' }),
    field('status', 'preset', { list: 'deliveryStatuses', values: deliveryStatuses, description: 'Pending or Delivered' }),
    num('attempts', { description: 'attempts made' }),
    stamp('nextAttemptStamp', { description: 'not attempted again before this' }),
    stamp('deliveredStamp', { description: 'when a receiver answered 2xx' }),
    num('lastStatusCode', { description: 'HTTP status of the last attempt (null: no answer)' }),
    text('lastError', { description: 'why the last attempt failed' }),
    field('attemptLog', 'json', { description: 'every attempt: [{stamp, statusCode, error, durationMs}]' }),
    ...stampFields(),
  ]),
  filters: [{ name: 'status', filter: { kind: 'oneOf', column: 'status', values: deliveryStatuses }, description: 'only deliveries with this status' }],
})
