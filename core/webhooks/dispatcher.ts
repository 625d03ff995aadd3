import { deliverDueWebhook, enqueueEvents, type DeliveryContext } from './deliver.js'

export interface DispatcherOptions {
  /** Who holds the per-webhook leases: this process's dispatcher. */
  readonly holder: string
  /** How long a webhook's lease lasts: a killed worker's deliveries are retried after this. */
  readonly leaseMs: number
}

/** Due webhooks read per poll beyond those already being delivered. */
const DUE_PER_POLL = 100

/**
 * Delivers each due webhook on its own: a poll starts the deliveries of the webhooks that are
 * due and not already being delivered here, and returns without waiting for them. A receiver
 * that never answers holds only its own webhook (until the attempt times out), while the next
 * polls keep delivering the others; a pass that waited for every webhook made all of them
 * wait for the slowest (issue 49: 66 ms became 3.4 s at the median beside a hanging receiver).
 * Order within a webhook is kept: one delivery at a time per webhook here, and one worker at a
 * time across processes (its lease).
 */
export class WebhookDispatcher {
  private readonly inFlight = new Map<string, Promise<void>>()
  private readonly stopping = new AbortController()
  private finished = { delivered: 0, failed: 0 }
  private errors: unknown[] = []
  private wake: (() => void) | null = null

  constructor(
    private readonly ctx: DeliveryContext,
    private readonly options: DispatcherOptions,
  ) {}

  /** Queues new events, then starts every due webhook not in flight; answers how many it started. */
  async poll(): Promise<number> {
    if (this.stopping.signal.aborted) return 0
    await enqueueEvents(this.ctx)
    const due = await this.ctx.store.webhookOutbox.dueWebhooks(this.ctx.clock.now(), DUE_PER_POLL + this.inFlight.size)
    let started = 0
    for (const webhook of due) {
      if (this.inFlight.has(webhook.id) || this.stopping.signal.aborted) continue
      const delivery = deliverDueWebhook(this.ctx, webhook, { ...this.options, signal: this.stopping.signal })
        .then(
          (outcome) => {
            this.finished.delivered += outcome.delivered
            this.finished.failed += outcome.failed
          },
          (error: unknown) => void this.errors.push(error),
        )
        .finally(() => {
          this.inFlight.delete(webhook.id)
          this.wake?.()
        })
      this.inFlight.set(webhook.id, delivery)
      started += 1
    }
    return started
  }

  /** Deliveries finished since the last call; a delivery that threw is thrown here (the job's run fails with it). */
  take(): { delivered: number; failed: number } {
    const { finished, errors } = this
    this.finished = { delivered: 0, failed: 0 }
    this.errors = []
    if (errors.length) throw errors[0]
    return finished
  }

  /** Webhooks being delivered now. */
  get busy(): number {
    return this.inFlight.size
  }

  /** Waits `ms`, or less when a delivery ends (its webhook may have more to send) or `signal` aborts. */
  pause(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        this.wake = null
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal.addEventListener('abort', done, { once: true })
      this.wake = done
    })
  }

  /** Starts nothing more; deliveries stop after their current attempt and are waited for (their leases released). */
  async stop(): Promise<void> {
    this.stopping.abort()
    await Promise.allSettled([...this.inFlight.values()])
  }
}
