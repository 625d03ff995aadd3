import type { JobDefinition } from '../../adapters/scheduler/job.js'
import { purgeDueCustomers } from '../../core/resources/removals.js'
import type { PlatformContext } from '../../core/platform.js'

/** Job schedules (croner patterns), each overridable from the environment. */
export interface Schedules {
  readonly purge: string
}

export function readSchedules(env: NodeJS.ProcessEnv = process.env): Schedules {
  return {
    purge: env.BILLING_SCHEDULE_PURGE || '15 2 * * *',
  }
}

/** The platform's scheduled jobs; each is safe to re-run and to run on several workers. */
export function platformJobs(ctx: PlatformContext, schedules: Schedules): JobDefinition[] {
  return [
    {
      name: 'purge-customers',
      schedule: schedules.purge,
      run: async (signal) => purgeDueCustomers(ctx, signal),
    },
  ]
}
