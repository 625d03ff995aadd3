import type { Stamp } from '../dates/stamp.js'
import { toStamp } from '../dates/stamp.js'
import type { Clock } from '../ports/clock.js'
import type { JobLeases } from '../ports/job-leases.js'
import type { Store } from '../ports/store.js'
import type { AttemptRecord, DueWebhook, PendingDelivery } from '../ports/webhook-outbox.js'
import type { WebhookSender } from '../ports/webhook-sender.js'

/** A webhook failing this long is set inactive (contract 12). */
export const GIVE_UP_MS = 3 * 24 * 60 * 60 * 1000
/** The first retry waits this long; each next one twice as long, up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 5_000
export const MAX_BACKOFF_MS = 12 * 60 * 60 * 1000

/** How long to wait after the `attempts`-th failed attempt (exponential, capped). */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1))
}

export interface DeliveryOptions {
  /** Who holds the per-webhook leases (the job run's holder). */
  readonly holder: string
  /** How long a webhook's lease lasts: a killed worker's deliveries are retried after this. */
  readonly leaseMs: number
  readonly signal?: AbortSignal
  /** Deliveries read a time, and marks written a time. */
  readonly batch?: number
}

export interface DeliveryContext {
  readonly store: Store
  readonly clock: Clock
  readonly leases: JobLeases
  readonly sender: WebhookSender
}

const ms = (stamp: Stamp): number => Date.parse(stamp)

/**
 * One pass of the delivery worker: queues new events for each webhook, then delivers every due
 * webhook's pending deliveries in event order. A webhook is delivered by one worker at a time
 * (its lease, `webhook:<id>`): several workers share the webhooks, never one webhook's order. A
 * delivery is marked delivered only after its receiver answered 2xx, so a worker killed
 * mid-delivery leaves it pending for the next holder: delivered again, never lost.
 */
export async function deliverWebhooks(ctx: DeliveryContext, options: DeliveryOptions): Promise<{ delivered: number; failed: number }> {
  const outbox = ctx.store.webhookOutbox
  await enqueueEvents(ctx)
  let delivered = 0
  let failed = 0
  const due = await outbox.dueWebhooks(ctx.clock.now(), 100)
  // Webhooks are independent: one slow receiver does not hold up the others' sends (the
  // pass still ends with the slowest: the delivery job uses `WebhookDispatcher` instead).
  await Promise.all(
    due.map(async (webhook) => {
      const outcome = await deliverDueWebhook(ctx, webhook, options)
      delivered += outcome.delivered
      failed += outcome.failed
    }),
  )
  return { delivered, failed }
}

/** Queues the events after each active webhook's cursor as its deliveries. */
export async function enqueueEvents(ctx: DeliveryContext): Promise<void> {
  await ctx.store.transaction((store) => store.webhookOutbox.enqueue(ctx.clock.now(), 10_000))
}

/**
 * One due webhook's pending deliveries, in order, under its lease (`webhook:<id>`); nothing
 * when another worker holds it.
 */
export async function deliverDueWebhook(ctx: DeliveryContext, webhook: DueWebhook, options: DeliveryOptions): Promise<{ delivered: number; failed: number }> {
  const lease = `webhook:${webhook.id}`
  if (!(await ctx.leases.acquire(lease, options.holder, options.leaseMs))) return { delivered: 0, failed: 0 }
  try {
    return await deliverOne(ctx, webhook, options, lease)
  } finally {
    await ctx.leases.release(lease, options.holder)
  }
}

/** A webhook's pending deliveries, in order, until one fails, none is left, or the lease runs short. */
async function deliverOne(ctx: DeliveryContext, webhook: DueWebhook, options: DeliveryOptions, lease: string) {
  const outbox = ctx.store.webhookOutbox
  const batch = options.batch ?? 200
  let delivered = 0
  let failingSince = webhook.failingSince
  for (;;) {
    if (options.signal?.aborted) break
    const pending = await outbox.pending(webhook.id, batch)
    if (pending.length === 0) break
    const done: { id: string; attempts: number; attemptLog: AttemptRecord[] }[] = []
    let failure: { delivery: PendingDelivery; attempt: AttemptRecord } | null = null
    for (const delivery of pending) {
      if (options.signal?.aborted) break
      const now = ctx.clock.now()
      const response = await ctx.sender.send({ url: webhook.url, secret: webhook.secret, id: delivery.eventID, timestamp: Math.floor(ms(now) / 1000), body: delivery.body })
      const attempt: AttemptRecord = { stamp: now, statusCode: response.statusCode, error: response.error, durationMs: response.durationMs }
      if (response.statusCode !== null && response.statusCode >= 200 && response.statusCode < 300) {
        done.push({ id: delivery.id, attempts: delivery.attempts + 1, attemptLog: [...delivery.attemptLog, attempt] })
      } else {
        failure = { delivery, attempt }
        break
      }
    }
    if (done.length) {
      // One transaction for the batch's marks: one commit (one fsync on SQLite) instead of one per delivery.
      await ctx.store.transaction((store) => store.webhookOutbox.delivered(done, ctx.clock.now()))
      delivered += done.length
      if (failingSince !== null) {
        failingSince = null
        await outbox.setFailing(webhook.id, null, true)
      }
    }
    if (failure) {
      const { delivery, attempt } = failure
      const attempts = delivery.attempts + 1
      const since = failingSince ?? attempt.stamp
      await outbox.failed({ id: delivery.id, attempts, attemptLog: [...delivery.attemptLog, attempt] }, toStamp(ms(attempt.stamp) + backoffMs(attempts)))
      // Three days of failures and the webhook is set inactive; its deliveries wait, in order, for it to be made active again.
      await outbox.setFailing(webhook.id, since, ms(attempt.stamp) - ms(since) < GIVE_UP_MS)
      return { delivered, failed: 1 }
    }
    if (!(await ctx.leases.renew(lease, options.holder, options.leaseMs))) break
  }
  return { delivered, failed: 0 }
}
