import { toStamp, type Stamp } from '../dates/stamp.js'
import type { Values } from '../fields/item.js'

/** What a running billing run has done, as `GET /billingRuns/<id>` shows it and the worker logs it. */
export interface RunProgress {
  readonly runID: string
  readonly customersTotal: number
  readonly customersDone: number
  /** Invoices raised so far. */
  readonly invoiceCount: number
  readonly estimatedCompletion: Stamp | null
}

/**
 * A run's progress as its execution goes: counts carried over from an execution a crash
 * interrupted, plus this execution's. The estimate is the pace of this execution alone (time
 * per customer since it started), so a resumed run is not judged by the time it lay dead.
 */
export class RunProgressCounter {
  private customersHere = 0
  private invoicesHere = 0

  constructor(
    private readonly runID: string,
    private readonly startedAt: Stamp,
    /** Customers that follow the run's resume point when the execution starts. */
    private readonly customersLeft: number,
    /** Customers and invoices of the executions before (0 for a fresh run). */
    private readonly before: { readonly customers: number; readonly invoices: number },
  ) {}

  /** Counts a committed step of `customers` customers and `invoices` invoices. */
  add(customers: number, invoices: number): void {
    this.customersHere += customers
    this.invoicesHere += invoices
  }

  /** The progress at `now`; `pending` counts a step not yet added (it commits with the progress it reports). */
  at(now: Stamp, pending = { customers: 0, invoices: 0 }): RunProgress {
    const here = this.customersHere + pending.customers
    // Customers created during the run are billed too: the total grows rather than being passed.
    const total = this.before.customers + Math.max(this.customersLeft, here)
    const elapsed = Date.parse(now) - Date.parse(this.startedAt)
    return {
      runID: this.runID,
      customersTotal: total,
      customersDone: this.before.customers + here,
      invoiceCount: this.before.invoices + this.invoicesHere + pending.invoices,
      estimatedCompletion: here > 0 ? toStamp(Date.parse(now) + Math.round((elapsed / here) * (this.customersLeft - Math.min(here, this.customersLeft)))) : null,
    }
  }
}

/** The billing run's stored progress fields. */
export const progressValues = (p: RunProgress): Values => ({
  customersTotal: p.customersTotal,
  customersDone: p.customersDone,
  invoiceCount: p.invoiceCount,
  estimatedCompletion: p.estimatedCompletion,
})
