import type { Stamp } from '../dates/stamp.js'
import type { RunProgress } from './run-progress.js'
import type { NumberSettings } from './bill-batch.js'

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
