import { readNoParams, readParams } from '../../../core/actions/params.js'
import { generatePaymentLinks, generatePIN, setAccountingID, UUID } from '../../../core/customers/side-effects.js'
import { text } from '../../../core/fields/field.js'
import { toWire } from '../../../core/fields/wire.js'
import { paymentLinkTypes } from '../../../core/presets/presets.js'
import { json } from '../respond.js'
import type { ActionDef } from './action-routes.js'

/** The answer of generatePaymentLinks (contract 7), for the OpenAPI document. */
const paymentLinksResult = {
  type: 'object',
  required: ['success', 'paymentLinkUUID', 'links'],
  properties: {
    success: { type: 'boolean' },
    paymentLinkUUID: { type: 'string', format: 'uuid' },
    links: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'providerName', 'label', 'url'],
        properties: {
          type: { type: 'string', enum: [...paymentLinkTypes] },
          providerName: { type: 'string' },
          label: { type: 'string' },
          url: { type: 'string' },
        },
      },
    },
  },
}

/** Customer actions with side effects (contract 7). */
export const customerSideEffectActions: Record<string, ActionDef> = {
  generatePIN: {
    summary: 'Generate a 6-digit portal PIN (stored hashed); answers {"pin": "..."} only',
    params: [],
    result: { type: 'object', required: ['pin'], properties: { pin: { type: 'string', pattern: '^[0-9]{6}$' } } },
    async handler(event, ctx, item, body) {
      readNoParams('generatePIN', body)
      return json(event, 200, await generatePIN(ctx.platform, item))
    },
  },
  linkToAccounting: {
    summary: 'Store the UUID of the customer in the external accounting system (accountingID)',
    params: [text('accountingID', { required: true, description: 'UUID of the customer in the external accounting system' })],
    async handler(event, ctx, item, body) {
      const { accountingID } = readParams('linkToAccounting', body, {
        accountingID: {
          name: 'accountingID',
          required: true,
          hint: 'a UUID such as "0b8e0f0c-4f6a-4a8e-9a57-2d1c3e6f7a81".',
          parse: (v) => (typeof v === 'string' && UUID.test(v) ? v : null),
        },
      })
      const updated = await setAccountingID(ctx.platform, item, accountingID)
      return json(event, 200, toWire(ctx.platform.resources.get('customers')!, updated))
    },
  },
  unlinkFromAccounting: {
    summary: 'Clear accountingID',
    params: [],
    async handler(event, ctx, item, body) {
      readNoParams('unlinkFromAccounting', body)
      const updated = await setAccountingID(ctx.platform, item, null)
      return json(event, 200, toWire(ctx.platform.resources.get('customers')!, updated))
    },
  },
  generatePaymentLinks: {
    summary: "Payment links for the link types of the customer's portal profile",
    errors: [500521],
    params: [],
    result: paymentLinksResult,
    async handler(event, ctx, item, body) {
      readNoParams('generatePaymentLinks', body)
      return json(event, 200, await generatePaymentLinks(ctx.platform, item))
    },
  },
}

