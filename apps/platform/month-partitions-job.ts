import type { Database } from '../../adapters/persistence/connect.js'
import { addMonthsAhead } from '../../adapters/persistence/months-ahead.js'
import type { JobDefinition } from '../../adapters/scheduler/job.js'
import type { Clock } from '../../core/ports/clock.js'

/**
 * `month-partitions`: makes the partitions of this month and the next two ahead of their rows,
 * at start and daily (docs/scaling.md). Only where the database keeps tables as a partition per
 * month (Postgres); none on SQLite.
 */
export function monthPartitionsJobs(database: Database, clock: Clock, schedule: string): JobDefinition[] {
  if (!database.dialect.partitions) return []
  return [
    {
      name: 'month-partitions',
      schedule,
      runAtStart: true,
      run: async () => {
        const made = await addMonthsAhead(database, clock.today())
        return made.length ? { made: made.length, partitions: made.join(' ') } : undefined
      },
    },
  ]
}
