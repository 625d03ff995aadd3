import { toStamp, type Stamp } from '../dates/stamp.js'
import type { Values } from '../fields/item.js'
import type { PartitionTotals } from '../ports/run-partitions.js'

/** What a running billing run has done, as `GET /billingRuns/<id>` shows it and the worker logs it. */
export interface RunProgress {
  readonly runID: string
  readonly customersTotal: number
  readonly customersDone: number
  /** Invoices raised so far. */
  readonly invoiceCount: number
  readonly estimatedCompletion: Stamp | null
}

/** How fast this worker's execution of a run goes: customers billed since it started. */
export interface ExecutionPace {
  readonly startedAt: Stamp
  readonly customers: number
}

/**
 * A run's progress from its partitions' totals (every worker's committed steps). The estimate
 * is this execution's pace (time per customer since it started, so a resumed run is not judged
 * by the time it lay dead) times the customers left, shared among the workers holding
 * partitions now (each is taken to go at this one's pace).
 */
export function runProgress(runID: string, totals: PartitionTotals, pace: ExecutionPace, now: Stamp): RunProgress {
  // Customers created during the run are billed too: the total grows rather than being passed.
  const total = Math.max(totals.customersTotal, totals.customersDone)
  const left = total - totals.customersDone
  const elapsed = Date.parse(now) - Date.parse(pace.startedAt)
  const workers = Math.max(1, totals.active)
  return {
    runID,
    customersTotal: total,
    customersDone: totals.customersDone,
    invoiceCount: totals.invoiceCount,
    estimatedCompletion: pace.customers > 0 ? toStamp(Date.parse(now) + Math.round(((elapsed / pace.customers) * left) / workers)) : null,
  }
}

/** The billing run's stored progress fields. */
export const progressValues = (p: RunProgress): Values => ({
  customersTotal: p.customersTotal,
  customersDone: p.customersDone,
  invoiceCount: p.invoiceCount,
  estimatedCompletion: p.estimatedCompletion,
})
