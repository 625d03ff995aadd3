import { BillingError } from '../errors.js'
import type { Entity } from '../fields/entity.js'
import type { Resource } from '../fields/resource.js'
import type { Values } from '../fields/item.js'
import type { PlatformContext } from '../platform.js'
import { SIGNING_SECRET_PREFIX } from '../presets/signing-secret.js'
import { createItem, getItem, updateItem } from '../resources/resources.js'

/**
 * A URL the worker can POST to: http or https, absolute, and (unless the platform allows
 * private targets) not reaching inside the network: see `WebhookTargets`.
 */
async function checkUrl(ctx: PlatformContext, body: unknown): Promise<void> {
  const url = (body as { url?: unknown } | null)?.url
  if (typeof url !== 'string') return // absent, or the wrong type: the field check says so
  let parsed: URL | null = null
  try {
    parsed = new URL(url)
  } catch {
    parsed = null
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new BillingError('invalid_field', `Field "url" of webhook is not an http or https URL: ${JSON.stringify(url.slice(0, 60))}`, 'Give an absolute URL such as "https://example.com/hooks/billing".')
  }
  const refusal = await ctx.webhookTargets?.refusal(url)
  if (refusal) {
    throw new BillingError(
      'invalid_field',
      `Field "url" of webhook points inside the network: ${refusal}`,
      'Give a URL whose host is a public address; loopback, private and link-local targets need BILLING_WEBHOOK_ALLOW_PRIVATE=true (library: allowPrivateWebhooks).',
    )
  }
}

/**
 * Creates a webhook (contract 12): active unless told otherwise, a new signing secret, and sent
 * only the events after this moment. The secret is answered here and never again.
 */
export async function createWebhook(ctx: PlatformContext, resource: Resource<'webhooks'>, body: unknown): Promise<{ webhook: Entity<'webhooks'>; secret: string }> {
  await checkUrl(ctx, body)
  // 24 random bytes: above the 16 the signing-secret rule asks, so a secret handed out always signs.
  const secret = `${SIGNING_SECRET_PREFIX}${ctx.random.secret(24)}`
  return ctx.store.transaction(async (store) => {
    const queuedEventID = await store.webhookOutbox.lastEventID()
    const set: Values = { secret, queuedEventID }
    if (!(body && typeof body === 'object' && Object.hasOwn(body, 'active') && (body as { active?: unknown }).active !== undefined)) set.active = true
    const webhook = await createItem({ ...ctx, store }, resource, body, set)
    return { webhook, secret }
  })
}

/** Updates a webhook; made active again, its failures are forgotten and its deliveries resume at once, in order. */
export async function updateWebhook(ctx: PlatformContext, resource: Resource<'webhooks'>, id: string, body: unknown): Promise<Entity<'webhooks'>> {
  await checkUrl(ctx, body)
  return ctx.store.transaction(async (store) => {
    const before = await getItem({ ...ctx, store }, resource, id)
    const after = await updateItem({ ...ctx, store }, resource, id, body)
    if (!before.active && after.active) {
      await store.webhookOutbox.resume(id)
      return getItem({ ...ctx, store }, resource, id)
    }
    return after
  })
}
