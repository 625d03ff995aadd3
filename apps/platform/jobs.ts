import { Cron } from 'croner'
import type { JobDefinition, JobResult } from '../../adapters/scheduler/job.js'
import type { JobLogEntry } from '../../adapters/scheduler/scheduler.js'
import type { RunProgress } from '../../core/billing/run-progress.js'
import { purgeDueCustomers } from '../../core/resources/removals.js'
import { CALLBACK_RECEIPT_DAYS, pruneCallbackReceipts } from '../../core/payments/receipt-retention.js'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { PARTITION_FEATURES } from '../../core/billing/run-partitions.js'
import { hostname } from 'node:os'
import { markOverdue } from '../../core/billing/settle-accounts.js'
import { applyDueIncreases } from '../../core/tariffs/due-increases.js'
import { applyAnnualIncreases } from '../../core/billing/annual-increases.js'
import { ArchivesDisabled, ensureFreshArchive, expireArchives, runArchiveSchedule } from '../../core/disaster-recovery/archive-jobs.js'
import type { PlatformContext } from '../../core/platform.js'
import type { Logger } from './logger.js'
import { positiveInt } from './env-numbers.js'
import { randomUUID } from 'node:crypto'
import type { JobLeases } from '../../core/ports/job-leases.js'
import type { WebhookSender } from '../../core/ports/webhook-sender.js'
import { WebhookDispatcher } from '../../core/webhooks/dispatcher.js'
import { deliverInvoices, type InvoiceSending } from '../../core/delivery/deliver-invoices.js'
import { sweepPortal } from '../../core/portal/housekeeping.js'
import type { PortalSessions } from '../../core/ports/portal-sessions.js'
import { runDunning } from '../../core/dunning/run-dunning.js'
import { requestTopups } from '../../core/credit/auto-topups.js'
import { announceContractEnds } from '../../core/contract-ends/announce-contract-ends.js'
import type { IdempotencyStore } from '../../core/ports/idempotency-store.js'
import { IDEMPOTENCY_TTL_MS } from '../../adapters/http/idempotency.js'

/** A running billing run logs its progress at most this often. */
export const PROGRESS_LOG_MS = 10_000

/** Job schedules (croner patterns), each overridable from the environment. */
export interface Schedules {
  /** The daily purge: customers due for deletion, provider callback receipts past their retention, and Idempotency-Key records past their 24 hours. */
  readonly purge: string
  /** Days a provider callback's receipt is kept, so a retry of it is still a duplicate (BILLING_CALLBACK_RETENTION_DAYS). */
  readonly callbackReceiptDays: number
  /** How often requested billing runs are looked for. */
  readonly billingPoll: string
  /** The daily catch-up: resumes a run a crash interrupted and runs any still requested. */
  readonly billingCatchUp: string
  /** Disaster-recovery archives (written at start when none is current, then on this schedule). */
  readonly archive: string
  /** Invoices whose overdue date has passed become Overdue (contract 10.3). */
  readonly overdue: string
  /** Annual price increases that have come due (contract 11). */
  readonly annualIncreases: string
  /** How often the webhook delivery job starts (it then polls for 2 s, see `webhookJob`). */
  readonly webhooks: string
  /** How often invoice deliveries are sent (contract 14.2). */
  readonly invoiceDelivery: string
  /** How often idle portal sessions and old failed sign-ins are removed (contract 14.3). */
  readonly portalSweep: string
  /** The daily dunning steps (contract 15.2). */
  readonly dunning: string
  /** The daily making of the coming months' partitions (Postgres, month-partitions-job.ts). */
  readonly monthPartitions: string
  /** How often customers whose funds fell below their auto top-up threshold are looked for (core/credit/auto-topups.ts). */
  readonly autoTopup: string
  /** The daily end-of-contract notices (core/contract-ends/announce-contract-ends.ts). */
  readonly contractEndNotices: string
  /** Customers per billing batch at most. */
  readonly billingBatchSize: number
  /** Features a billing batch aims at (see `RunOptions.batchFeatures`). */
  readonly billingBatchFeatures: number
  /** Features a billing run's partition aims at (see `RunOptions.partitionFeatures`). */
  readonly billingPartitionFeatures: number
}

/**
 * The schedules from the environment. A pattern croner refuses fails here, naming its variable,
 * so a process refuses to start before it writes anything (contract 13).
 */
export function readSchedules(env: NodeJS.ProcessEnv = process.env): Schedules {
  return {
    purge: cronPattern(env, 'BILLING_SCHEDULE_PURGE', '15 2 * * *'),
    callbackReceiptDays: days(env, 'BILLING_CALLBACK_RETENTION_DAYS', CALLBACK_RECEIPT_DAYS),
    billingPoll: cronPattern(env, 'BILLING_SCHEDULE_BILLING_POLL', '*/15 * * * * *'),
    billingCatchUp: cronPattern(env, 'BILLING_SCHEDULE_BILLING_CATCHUP', '30 1 * * *'),
    archive: cronPattern(env, 'BILLING_SCHEDULE_DR', '0 3 * * *'),
    overdue: cronPattern(env, 'BILLING_SCHEDULE_OVERDUE', '5 0 * * *'),
    webhooks: cronPattern(env, 'BILLING_SCHEDULE_WEBHOOKS', '* * * * * *'),
    invoiceDelivery: cronPattern(env, 'BILLING_SCHEDULE_INVOICE_DELIVERY', '* * * * *'),
    annualIncreases: cronPattern(env, 'BILLING_SCHEDULE_ANNUAL_INCREASES', '20 0 * * *'),
    portalSweep: cronPattern(env, 'BILLING_SCHEDULE_PORTAL_SWEEP', '*/5 * * * *'),
    dunning: cronPattern(env, 'BILLING_SCHEDULE_DUNNING', '30 0 * * *'),
    monthPartitions: cronPattern(env, 'BILLING_SCHEDULE_MONTH_PARTITIONS', '45 0 * * *'),
    autoTopup: cronPattern(env, 'BILLING_SCHEDULE_AUTO_TOPUP', '*/15 * * * *'),
    contractEndNotices: cronPattern(env, 'BILLING_SCHEDULE_CONTRACT_END_NOTICES', '0 1 * * *'),
    billingBatchSize: positiveInt('BILLING_BATCH_SIZE', env.BILLING_BATCH_SIZE, 500),
    billingBatchFeatures: positiveInt('BILLING_BATCH_FEATURES', env.BILLING_BATCH_FEATURES, 1_000),
    billingPartitionFeatures: positiveInt('BILLING_PARTITION_FEATURES', env.BILLING_PARTITION_FEATURES, PARTITION_FEATURES),
  }
}

/** A number of days from the environment: a whole number of at least 1, else an error naming the variable. */
function days(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name]
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number of days (got ${value})`)
  return n
}

function cronPattern(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const pattern = env[name] || fallback
  try {
    new Cron(pattern, { paused: true }).stop()
  } catch (error) {
    throw new Error(`${name} is not a valid cron pattern ("${pattern}"): ${(error as Error).message}`)
  }
  return pattern
}

/**
 * The platform's scheduled jobs; each is safe to re-run and to run on several workers. A
 * billing run logs its progress (at most every PROGRESS_LOG_MS) and one line when it ends.
 * `leaseMs` is how long a billing run's partition stays with a worker that stopped committing.
 */
export function platformJobs(
  ctx: PlatformContext,
  schedules: Schedules,
  logger: Logger,
  delivery?: WebhookDelivery,
  leaseMs = 60_000,
  sending?: InvoiceSending & { leaseMs?: number },
  portal?: PortalSessions,
  idempotency?: IdempotencyStore,
): JobDefinition[] {
  const processID = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  const billing = async (signal: AbortSignal): Promise<JobResult | void> => {
    let runs = 0
    for (;;) {
      const started = performance.now()
      const outcome = await runNextBillingRun(ctx, {
        signal,
        batchSize: schedules.billingBatchSize,
        batchFeatures: schedules.billingBatchFeatures,
        partitionFeatures: schedules.billingPartitionFeatures,
        holder: `${processID}#${randomUUID().slice(0, 8)}`,
        leaseMs,
        onProgress: throttledProgressLog(logger),
      })
      if (outcome) logger.info({ ...outcome, durationMs: Math.round(performance.now() - started) }, 'billing-run-ended')
      if (!outcome || outcome.status === 'Interrupted') return runs > 0 ? { runs } : undefined
      runs += 1
    }
  }
  let archivedOnce = false
  const archive = async (): Promise<JobResult> => {
    // Under the job's lease no other process is writing: any work directory or partial
    // archive is a killed run's, and its plain table copies (secrets among them) go now.
    const leftovers = (await ctx.disasterRecovery?.archiver.removeLeftovers('all')) ?? 0
    if (leftovers > 0) logger.warn({ leftovers }, 'dr-leftovers-removed')
    try {
      // The first run writes one only when none is current; later runs follow the schedule.
      if (!archivedOnce) {
        archivedOnce = true
        const written = await ensureFreshArchive(ctx)
        return { written: written ? (written.filename as string) : null }
      }
      const { expired, generated } = await runArchiveSchedule(ctx)
      return { expired, written: generated.filename as string }
    } catch (error) {
      if (!(error instanceof ArchivesDisabled)) throw error
      // Without a password old archives still expire; the log line says why none is written.
      return { expired: await expireArchives(ctx), written: null, disabled: error.message }
    }
  }
  return [
    { name: 'disaster-recovery', schedule: schedules.archive, runAtStart: true, run: archive },
    // Every process bills the run in progress (its partitions are claimed one by one, see
    // core/billing/run-billing.ts); the two billing jobs share this process's lease, so they
    // never run at once here.
    { name: 'billing-poll', lease: `billing:${processID}`, schedule: schedules.billingPoll, runAtStart: true, run: billing },
    { name: 'billing-catch-up', lease: `billing:${processID}`, schedule: schedules.billingCatchUp, run: billing },
    // Just after midnight, and at start: an invoice is overdue the day after its overdue date.
    { name: 'invoice-overdue', schedule: schedules.overdue, runAtStart: true, run: async (signal) => ({ customers: await markOverdue(ctx, ctx.clock.today(), ctx.clock.now(), signal) }) },
    // Before the day's billing polls find a run: a run dated on a reference date charges the new price.
    // Increases due today: features' yearly ones, and call tariffs' own prices raised from a date (contract 17.5).
    { name: 'annual-increases', schedule: schedules.annualIncreases, runAtStart: true, run: async (signal) => ({ features: await applyAnnualIncreases(ctx, signal), tariffs: await applyDueIncreases(ctx) }) },
    // After the overdue job: a step counts days past the overdue date; reminders go out through the invoice outbox.
    {
      name: 'dunning',
      schedule: schedules.dunning,
      run: async (signal) => {
        const outcome = await runDunning(ctx, signal)
        return outcome.steps + outcome.unsuspended > 0 ? outcome : undefined
      },
    },
    // Top-ups due are announced for the payment provider to collect (customer.topup_requested); the money comes back as a payment.
    {
      name: 'auto-topup',
      schedule: schedules.autoTopup,
      run: async (signal) => {
        const outcome = await requestTopups(ctx, signal)
        return outcome.requested + outcome.cleared > 0 ? outcome : undefined
      },
    },
    // Contract ends within the presets' notice days are announced once per end date (contract.ending).
    {
      name: 'contract-end-notices',
      schedule: schedules.contractEndNotices,
      run: async (signal) => {
        const outcome = await announceContractEnds(ctx, signal)
        return outcome.customers + outcome.numbers + outcome.services > 0 ? outcome : undefined
      },
    },
    {
      // The name is older than its other parts: receipts and Idempotency-Key records are purged by
      // the same daily job. A record binds its key 24 hours (contract 2) and may hold a secret (a
      // PIN answered): it goes at the first purge after them. Records are stamped by the wall
      // clock, as their leases are (adapters/http/idempotency.ts), so their age is reckoned by it too.
      name: 'purge-customers',
      schedule: schedules.purge,
      run: async (signal) => ({
        ...(await purgeDueCustomers(ctx, signal)),
        callbackReceipts: await pruneCallbackReceipts(ctx, schedules.callbackReceiptDays),
        ...(idempotency ? { idempotencyKeys: await idempotency.removeBefore(Date.now() - IDEMPOTENCY_TTL_MS, undefined, signal) } : {}),
      }),
    },
    ...(delivery ? [webhookJob(ctx, schedules.webhooks, delivery)] : []),
    ...(sending ? [invoiceDeliveryJob(ctx, schedules.invoiceDelivery, sending)] : []),
    ...(portal ? [{ name: 'portal-sweep', schedule: schedules.portalSweep, run: async () => sweepPortal(portal, ctx.clock) }] : []),
  ]
}

/** What the webhook job needs besides the platform: the per-webhook leases and the signed sender. */
export interface WebhookDelivery {
  readonly leases: JobLeases
  readonly sender: WebhookSender
  /** A webhook's lease: a killed worker's delivery is sent again by another after this (default 60 s). */
  readonly leaseMs?: number
  /**
   * How long one run of the job keeps polling for events (default 2 s): short, because stopping
   * the scheduler waits for running jobs before it aborts them.
   */
  readonly runMs?: number
  /** The pause between passes that found nothing to do (default 100 ms): the lag from commit to delivery. */
  readonly idleMs?: number
}

/**
 * Webhook delivery (contract 12). The job's lease is per process, so every worker delivers at
 * once; the webhooks' own leases keep each webhook's deliveries with one worker at a time, in
 * order. A run polls for new events for up to `runMs`, so an event waits about `idleMs`. Each
 * webhook is delivered on its own (`WebhookDispatcher`): a delivery still waiting for a slow
 * receiver when a run ends goes on into the next run, and the scheduler's stop waits for it.
 */
function webhookJob(ctx: PlatformContext, schedule: string, delivery: WebhookDelivery): JobDefinition {
  const processID = randomUUID()
  const dispatcher = new WebhookDispatcher(
    { store: ctx.store, clock: ctx.clock, leases: delivery.leases, sender: delivery.sender },
    { holder: `${processID}:${randomUUID().slice(0, 8)}`, leaseMs: delivery.leaseMs ?? 60_000 },
  )
  return {
    name: 'webhook-delivery',
    lease: `webhook-delivery:${processID}`,
    schedule,
    runAtStart: true,
    async run(signal) {
      const until = performance.now() + (delivery.runMs ?? 2_000)
      let delivered = 0
      let failed = 0
      while (!signal.aborted && performance.now() < until) {
        await dispatcher.poll()
        const ended = dispatcher.take()
        delivered += ended.delivered
        failed += ended.failed
        await dispatcher.pause(delivery.idleMs ?? 100, signal)
      }
      return delivered + failed > 0 ? { delivered, failed } : undefined
    },
    stop: () => dispatcher.stop(),
  }
}

/**
 * Invoice deliveries (contract 14.2). Like webhooks, the job's lease is per process: every worker
 * sends at once, and each delivery's claim keeps it with one of them.
 */
function invoiceDeliveryJob(ctx: PlatformContext, schedule: string, sending: InvoiceSending & { leaseMs?: number }): JobDefinition {
  return {
    name: 'invoice-delivery',
    lease: `invoice-delivery:${randomUUID()}`,
    schedule,
    runAtStart: true,
    async run(signal) {
      const outcome = await deliverInvoices(ctx, sending, { signal, leaseMs: sending.leaseMs })
      return outcome.sent + outcome.failed + outcome.retrying + outcome.skipped > 0 ? outcome : undefined
    },
  }
}

/** A progress line for the first step, then none until PROGRESS_LOG_MS have passed (`now` in ms, monotonic). */
export function throttledProgressLog(logger: Logger, now: () => number = () => performance.now()): (progress: RunProgress) => void {
  let last = -Infinity
  return (progress) => {
    const at = now()
    if (at - last < PROGRESS_LOG_MS) return
    last = at
    logger.info(progress, 'billing-run-progress')
  }
}

/**
 * The job's end line: a failure at `error` with what was thrown (its stack), a run that did
 * something at `info`; a run that found nothing to do or was skipped (another holds the lease)
 * at `debug`, since every poll of every worker ends so.
 */
export function logJobEnd(logger: Logger): (entry: JobLogEntry) => void {
  return ({ failure, ...entry }) => {
    if (entry.outcome === 'failed') logger.error({ ...entry, err: failure }, 'job')
    else if (entry.outcome === 'done' && entry.result) logger.info(entry, 'job')
    else logger.debug(entry, 'job')
  }
}
