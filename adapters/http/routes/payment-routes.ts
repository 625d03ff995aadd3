import type { Resource } from '../../../core/fields/resource.js'
import { BillingError } from '../../../core/errors.js'
import { parentScope } from '../../../core/resources/scopes.js'
import { expireLinks } from '../../../core/payments/payment-links.js'
import { toProviderCallback } from '../../../core/payments/provider-callback.js'
import { applyProviderCallback } from '../../../core/payments/apply-callback.js'
import { isSignedCallback } from '../../payments/callback-signature.js'
import { asActor } from '../../security/actor-scope.js'
import { readBodyBytes } from '../body.js'
import { json, requestIdOf } from '../respond.js'
import type { Route } from '../route.js'
import { listRoute } from './resource-routes.js'

/** Payment links of a customer, and the providers' callbacks that pay them (contract 15.1). */
export function paymentRoutes(paymentLinks: Resource): Route[] {
  return [
    listRoute(paymentLinks, {
      path: '/customers/:id/paymentLinks',
      summary: "List a customer's payment links: Open, Paid, or Expired after 30 days",
      scope: async (ctx) => {
        const scope = await parentScope(ctx.platform.store, 'customers', ctx.params.id, 'customerID')
        await expireLinks(ctx.platform.store, ctx.platform.clock, ctx.params.id)
        return scope
      },
    }),
    {
      method: 'POST',
      path: '/paymentProviders/:provider/callbacks',
      // Authenticated by the provider's signature instead of an API key.
      public: true,
      doc: {
        summary: "A payment provider's signed callback (Standard Webhooks): payment.succeeded, payment.failed, mandate.created, mandate.cancelled",
        kind: 'other',
        errors: [400100, 400101, 401001, 404001],
      },
      async handler(event, ctx) {
        // Authentication comes first (contract 2): a provider we do not know cannot sign, so it is 401 too.
        const provider = ctx.platform.presets.paymentProviders.find((p) => p.name === ctx.params.provider)
        const raw = new TextDecoder().decode(await readBodyBytes(event))
        const h = (name: string) => event.req.headers.get(name) ?? ''
        const headers = { id: h('webhook-id'), timestamp: h('webhook-timestamp'), signature: h('webhook-signature') }
        if (!provider || !isSignedCallback(provider.callbackSecret, headers, raw, Date.parse(ctx.platform.clock.now()))) {
          throw new BillingError('unauthenticated', 'The callback signature is missing, wrong or too old', 'Sign the raw body with the Standard Webhooks scheme and the provider\'s callback secret; the timestamp must be within 5 minutes.')
        }
        let body: unknown
        try {
          body = JSON.parse(raw)
        } catch {
          throw new BillingError('invalid_body', 'The callback body is not JSON', 'Send a JSON object.')
        }
        // A JSON array or string is no callback: a body error (contract 2), before any field is read.
        if (body === null || typeof body !== 'object' || Array.isArray(body)) {
          throw new BillingError('invalid_body', 'The callback body must be a JSON object', 'Send a JSON object with type, paymentLinkUUID, amount, currency, providerReference and occurredAt.')
        }
        const callback = toProviderCallback(body)
        // History names the provider, as it names an API key for the API's own changes.
        const outcome = await asActor({ apiKeyName: `provider:${provider.name}`, requestID: requestIdOf(event) || null }, () =>
          applyProviderCallback(ctx.platform, provider, callback, headers.id),
        )
        return json(event, 200, { received: true, duplicate: outcome === 'duplicate' })
      },
    },
  ]
}
