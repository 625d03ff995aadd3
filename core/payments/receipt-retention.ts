import { toStamp } from '../dates/stamp.js'
import type { Clock } from '../ports/clock.js'
import type { Store } from '../ports/store.js'

/**
 * How many days a provider callback's receipt is kept (contract 15.1: a message is applied once
 * per provider and `Webhook-Id`), unless `BILLING_CALLBACK_RETENTION_DAYS` says otherwise. A
 * provider retries a message it thinks undelivered for days, each time newly signed under the
 * same id: the Standard Webhooks schedule for about a day and a half, Stripe and PayPal for three
 * days, Adyen's queue for up to 30. A receipt forgotten before the last retry lets that retry
 * apply a second time (a payment is still recorded once: its `providerReference` is unique per
 * provider, but a failure or a mandate change would be announced again), so the default outlasts
 * the longest of these with a few days to spare.
 */
export const CALLBACK_RECEIPT_DAYS = 35

const DAY_MS = 86_400_000

/** The purge job's part (apps/platform/jobs.ts): forgets the receipts older than `days`; returns how many. */
export async function pruneCallbackReceipts(ctx: { readonly store: Store; readonly clock: Clock }, days: number): Promise<number> {
  return ctx.store.callbackReceipts.removeBefore(toStamp(Date.parse(ctx.clock.now()) - days * DAY_MS))
}
