import { idField, stampFields } from './common.js'
import { eventTypes } from '../presets/engine-lists.js'
import { field, stamp, text } from './field.js'
import { defineResource } from './resource.js'

/**
 * Where the worker delivers events (contract 12). `secret` signs the deliveries: generated on
 * create, stored for signing, and shown only in the create response.
 */
export const webhooks = defineResource({
  name: 'webhooks',
  singular: 'webhook',
  table: 'webhooks',
  fields: [
    idField,
    text('url', { required: true, maxLength: 2000, extension: true, description: 'http(s) URL the events are POSTed to' }),
    field('eventTypes', 'presets', { list: 'eventTypes', values: eventTypes, extension: true, description: 'event types delivered; [] = all' }),
    field('active', 'boolean', { extension: true, description: 'false: nothing is delivered; set false after 3 days of failures' }),
    text('secret', { internal: true, readOnly: true, description: 'whsec_ signing secret (shown once, on create)' }),
    stamp('failingSince', { description: 'first failed attempt since the last success' }),
    // The worker's cursor into the events: the last one queued for this webhook.
    field('queuedEventID', 'id', { internal: true, readOnly: true }),
    ...stampFields(),
  ],
})
