import type { Stamp } from '../dates/stamp.js'

/** A webhook with a delivery due: where to send, and how to sign. */
export interface DueWebhook {
  readonly id: string
  readonly url: string
  readonly secret: string
  readonly failingSince: Stamp | null
}

/** One attempt of a delivery, as `attemptLog` lists it. */
export interface AttemptRecord {
  readonly stamp: Stamp
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
}

/** A pending delivery with its event's JSON (the body that is POSTed). */
export interface PendingDelivery {
  readonly id: string
  readonly eventID: string
  readonly attempts: number
  readonly attemptLog: readonly AttemptRecord[]
  readonly body: string
}

/**
 * The webhook side of the events outbox (contract 12): events fanned out into one delivery per
 * matching webhook, in event order, and what each attempt did.
 */
export interface WebhookOutbox {
  /** The newest event's ID ("0" when none): a new webhook is sent what happens after it. */
  lastEventID(): Promise<string>
  /** Queues the events after each active webhook's cursor as its deliveries (at most `limit` events a webhook); answers how many deliveries. */
  enqueue(now: Stamp, limit: number): Promise<number>
  /** Active webhooks whose first pending delivery is due at `now`, at most `limit`. */
  dueWebhooks(now: Stamp, limit: number): Promise<DueWebhook[]>
  /** A webhook's pending deliveries in event order, at most `limit`. */
  pending(webhookID: string, limit: number): Promise<PendingDelivery[]>
  /** Marks pending deliveries delivered, each with its attempt added (one another worker marked already stays as it is). */
  delivered(deliveries: readonly { id: string; attempts: number; attemptLog: readonly AttemptRecord[] }[], now: Stamp): Promise<void>
  /** Records a failed attempt; the delivery is not tried again before `nextAttemptStamp`. */
  failed(delivery: { id: string; attempts: number; attemptLog: readonly AttemptRecord[] }, nextAttemptStamp: Stamp): Promise<void>
  /** Since when a webhook fails (null: it works again); its `active` is left as it is (an operator's to set). */
  setFailing(webhookID: string, failingSince: Stamp | null): Promise<void>
  /** The worker gives a webhook up: failing since `failingSince`, and set inactive (the worker never sets one active). */
  giveUp(webhookID: string, failingSince: Stamp): Promise<void>
  /** A webhook made active again: its failures forgotten and its pending deliveries due at once, in order. */
  resume(webhookID: string): Promise<void>
  /** Deliveries waiting, and events not yet queued for an active webhook: the delivery backlog. */
  backlog(): Promise<number>
}
