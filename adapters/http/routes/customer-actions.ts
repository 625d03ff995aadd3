import { paymentLinkTypes } from '../../../core/presets/presets.js'
import type { ActionDocDef } from './action-routes.js'

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
export const customerSideEffectActionDocs: Record<string, ActionDocDef> = {
  generatePIN: {
    summary: 'Generate a 6-digit portal PIN (stored hashed); answers {"pin": "..."} only',
    result: { type: 'object', required: ['pin'], properties: { pin: { type: 'string', pattern: '^[0-9]{6}$' } } },
  },
  linkToAccounting: { summary: 'Store the UUID of the customer in the external accounting system (accountingID)' },
  unlinkFromAccounting: { summary: 'Clear accountingID' },
  generatePaymentLinks: {
    summary: "Payment links for the link types of the customer's portal profile",
    errors: [500521],
    result: paymentLinksResult,
  },
}
