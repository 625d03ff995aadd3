import type { Stamp } from '../dates/stamp.js'
import { toStamp } from '../dates/stamp.js'
import type { Clock } from '../ports/clock.js'
import type { JobLeases } from '../ports/job-leases.js'
import type { Store } from '../ports/store.js'
import type { AttemptRecord, DueWebhook } from '../ports/webhook-outbox.js'
import type { WebhookSender } from '../ports/webhook-sender.js'

/** A failing webhook is retried for this long, then set inactive (contract 12). */
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
  /** Pending deliveries read a time; their marks are written at the end of it at the latest. */
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

type Mark = { id: string; attempts: number; attemptLog: AttemptRecord[] }

/**
 * A webhook's pending deliveries, in order, until one fails, none is left, or the lease is lost.
 * The answered deliveries' marks are written, and the lease renewed, at each checkpoint: after a
 * batch, before a failure is recorded, and before the next send once a third of the lease has
 * passed since the last one. So a batch may outlast the lease while its holder keeps it, a worker
 * killed mid-batch leaves only the last third-of-a-lease's deliveries to be sent again, and a
 * worker whose lease was taken over meanwhile (an attempt that outlasted it) stops: the new
 * holder sends from the first delivery not marked.
 */
async function deliverOne(ctx: DeliveryContext, webhook: DueWebhook, options: DeliveryOptions, lease: string) {
  const outbox = ctx.store.webhookOutbox
  const batch = options.batch ?? 200
  let delivered = 0
  let failingSince = webhook.failingSince
  const answered: Mark[] = []
  let checkpointDue = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const startTimer = () => (timer = setTimeout(() => (checkpointDue = true), options.leaseMs / 3))
  /** Writes the marks so far and renews the lease; false when the lease was lost. */
  const checkpoint = async (): Promise<boolean> => {
    clearTimeout(timer)
    const held = await ctx.leases.renew(lease, options.holder, options.leaseMs)
    checkpointDue = false
    startTimer()
    if (answered.length) {
      const marks = answered.splice(0)
      // One transaction for the marks: one commit (one fsync) instead of one per delivery. Written
      // even when the lease was lost: the receivers have them (one the new holder marked stays as it is).
      await ctx.store.transaction((store) => store.webhookOutbox.delivered(marks, ctx.clock.now()))
      delivered += marks.length
      if (held && failingSince !== null) {
        failingSince = null
        await outbox.setFailing(webhook.id, null)
      }
    }
    return held
  }
  startTimer()
  try {
    while (!options.signal?.aborted) {
      const pending = await outbox.pending(webhook.id, batch)
      if (pending.length === 0) break
      for (const delivery of pending) {
        if (options.signal?.aborted) break
        if (checkpointDue && !(await checkpoint())) return { delivered, failed: 0 }
        const now = ctx.clock.now()
        const response = await ctx.sender.send({ url: webhook.url, secret: webhook.secret, id: delivery.eventID, timestamp: Math.floor(ms(now) / 1000), body: delivery.body })
        const attempt: AttemptRecord = { stamp: now, statusCode: response.statusCode, error: response.error, durationMs: response.durationMs }
        const mark = { id: delivery.id, attempts: delivery.attempts + 1, attemptLog: [...delivery.attemptLog, attempt] }
        if (response.statusCode !== null && response.statusCode >= 200 && response.statusCode < 300) {
          answered.push(mark)
          continue
        }
        // A failure is the holder's to record (its backoff, the webhook's failing state).
        if (!(await checkpoint())) return { delivered, failed: 0 }
        await recordFailure(ctx, webhook.id, failingSince ?? attempt.stamp, mark)
        return { delivered, failed: 1 }
      }
      if (!(await checkpoint())) break
    }
    return { delivered, failed: 0 }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A failed attempt: retried after its backoff, but not later than 3 days after the webhook began
 * failing; an attempt failing then gives the webhook up (set inactive), its deliveries waiting, in
 * order, for it to be made active again.
 */
async function recordFailure(ctx: DeliveryContext, webhookID: string, since: Stamp, delivery: Mark): Promise<void> {
  const stamp = ms(delivery.attemptLog.at(-1)!.stamp)
  const retry = stamp + backoffMs(delivery.attempts)
  const giveUpAt = ms(since) + GIVE_UP_MS
  await ctx.store.transaction(async (store) => {
    if (stamp >= giveUpAt) {
      await store.webhookOutbox.failed(delivery, toStamp(retry))
      await store.webhookOutbox.giveUp(webhookID, since)
    } else {
      await store.webhookOutbox.failed(delivery, toStamp(Math.min(retry, giveUpAt)))
      await store.webhookOutbox.setFailing(webhookID, since)
    }
  })
}
