import type { JobDefinition, JobResult } from '../../adapters/scheduler/job.js'
import { purgeDueCustomers } from '../../core/resources/removals.js'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { ArchivesDisabled, ensureFreshArchive, expireArchives, runArchiveSchedule } from '../../core/disaster-recovery/archive-jobs.js'
import type { PlatformContext } from '../../core/platform.js'

/** Job schedules (croner patterns), each overridable from the environment. */
export interface Schedules {
  readonly purge: string
  /** How often requested billing runs are looked for. */
  readonly billingPoll: string
  /** The daily catch-up: resumes a run a crash interrupted and runs any still requested. */
  readonly billingCatchUp: string
  /** Disaster-recovery archives (written at start when none is current, then on this schedule). */
  readonly archive: string
  /** Customers per billing batch at most. */
  readonly billingBatchSize: number
  /** Features a billing batch aims at (see `RunOptions.batchFeatures`). */
  readonly billingBatchFeatures: number
}

export function readSchedules(env: NodeJS.ProcessEnv = process.env): Schedules {
  return {
    purge: env.BILLING_SCHEDULE_PURGE || '15 2 * * *',
    billingPoll: env.BILLING_SCHEDULE_BILLING_POLL || '*/15 * * * * *',
    billingCatchUp: env.BILLING_SCHEDULE_BILLING_CATCHUP || '30 1 * * *',
    archive: env.BILLING_SCHEDULE_DR || '0 3 * * *',
    billingBatchSize: Number(env.BILLING_BATCH_SIZE) > 0 ? Number(env.BILLING_BATCH_SIZE) : 500,
    billingBatchFeatures: Number(env.BILLING_BATCH_FEATURES) > 0 ? Number(env.BILLING_BATCH_FEATURES) : 1_000,
  }
}

/** The platform's scheduled jobs; each is safe to re-run and to run on several workers. */
export function platformJobs(ctx: PlatformContext, schedules: Schedules): JobDefinition[] {
  const billing = async (signal: AbortSignal) => {
    let runs = 0
    for (;;) {
      const outcome = await runNextBillingRun(ctx, { signal, batchSize: schedules.billingBatchSize, batchFeatures: schedules.billingBatchFeatures })
      if (!outcome || outcome.status === 'Interrupted') return { runs }
      runs += 1
    }
  }
  let archivedOnce = false
  const archive = async (): Promise<JobResult> => {
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
    // Both billing jobs share one lease name, so a run is never executed twice at once.
    { name: 'billing-poll', lease: 'billing', schedule: schedules.billingPoll, runAtStart: true, run: billing },
    { name: 'billing-catch-up', lease: 'billing', schedule: schedules.billingCatchUp, run: billing },
    {
      name: 'purge-customers',
      schedule: schedules.purge,
      run: async (signal) => purgeDueCustomers(ctx, signal),
    },
  ]
}
