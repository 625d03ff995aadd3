import type { Stamp } from '../dates/stamp.js'
import type { RunProgress } from './run-progress.js'
import type { NumberSettings } from './bill-batch.js'

/** Ledger rows written before the first refresh of the database's statistics during a run. */
const STATISTICS_FIRST = 5_000

/** How one worker executes its share of a billing run (see `RunOptions`), and what it has done so far. */
export class RunExecution {
  customers = 0
  invoices = 0
  writes = 0
  /** Partitions this execution claimed (a planning one included). */
  claimed = 0
  private refreshAt = STATISTICS_FIRST

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

  /**
   * Whether the database's statistics are due a refresh: each time this execution has doubled
   * what it wrote (a plan chosen while the ledger looked empty scans it whole once it is large).
   */
  statisticsDue(): boolean {
    if (this.writes < this.refreshAt) return false
    this.refreshAt = this.writes * 2
    return true
  }
}
