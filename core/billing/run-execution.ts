import type { Stamp } from '../dates/stamp.js'
import type { RunProgress } from './run-progress.js'
import type { NumberSettings } from './bill-batch.js'

/** Customers a run bills before the first refresh of the database's statistics (about 5,000 ledger rows). */
const STATISTICS_FIRST = 1_000

/**
 * Whether a step that took the run's billed customers from `before` to `after` crossed a point
 * where the database's statistics are refreshed: 1,000 customers, then each doubling (a plan
 * chosen while the ledger looked empty scans it whole once it is large). Counted over the whole
 * run, so the step that crosses a point refreshes, whichever worker made it: counted per worker,
 * four workers would run about three times as many ANALYZEs as one.
 */
export function statisticsDue(before: number, after: number): boolean {
  for (let at = STATISTICS_FIRST; at <= after; at *= 2) if (before < at) return true
  return false
}

/** How one worker executes its share of a billing run (see `RunOptions`), and what it has done so far. */
export class RunExecution {
  customers = 0
  invoices = 0
  writes = 0
  /** Partitions this execution claimed (a planning one included). */
  claimed = 0

  constructor(
    readonly holder: string,
    readonly leaseMs: number,
    readonly batchSize: number,
    readonly batchFeatures: number,
    readonly partitionFeatures: number,
    readonly startedAt: Stamp,
    readonly numbers: NumberSettings,
    readonly signal: AbortSignal | undefined,
    readonly onProgress: ((progress: RunProgress) => void) | undefined,
  ) {}

  /** Counts a committed step. */
  add(step: { readonly customers: number; readonly invoices: number; readonly writes: number }): void {
    this.customers += step.customers
    this.invoices += step.invoices
    this.writes += step.writes
  }
}
