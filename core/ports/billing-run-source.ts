import type { RunCall, RunCustomer, RunFeature } from './run-fields.js'

/** A feature as a billing run reads it (core/billing/run-fields.ts), with its reconciled mark or null. */
export interface MarkedFeature {
  readonly feature: RunFeature
  readonly mark: string | null
}

/** What a billing run reads of the customers and features it bills: narrow rows, a page at a time. */
export interface BillingRunSource {
  /**
   * The next `limit` customers after `afterID` in ID order, through `lastID` when given (a
   * partition's end), run fields only. Not locked: a step reads its pages beside its transaction
   * (Postgres: another connection), where a lock would end with its statement; the step locks
   * them first in its own (`lockCustomersAfter`).
   */
  customersAfter(afterID: string, limit: number, lastID?: string | null): Promise<RunCustomer[]>
  /**
   * Locks the next `limit` customers after `afterID` in ID order (through `lastID`) in the
   * caller's transaction, as a charge change or a lifecycle action locks its customer: a change
   * committed before the lock is granted is read by any statement begun after it, on any
   * connection, and one made later waits for the transaction. Answers the last customer locked
   * when there were `limit` (customers after it are not locked), else null: every one through
   * `lastID` is. Null without a statement where the database serialises its writers (SQLite).
   */
  lockCustomersAfter(afterID: string, limit: number, lastID?: string | null): Promise<string | null>
  /** How many customers follow `afterID` (what a run has still to bill, for its progress). */
  customerCountAfter(afterID: string): Promise<number>
  /**
   * The features of the customers `customersAfter` returns for the same arguments (a page), by
   * customer, then ID (run fields only), each with its reconciled mark. It does not wait for
   * that page: the two are asked together, and a connection on another thread answers both in
   * one turn of this one.
   */
  featuresOf(afterID: string, limit: number, lastID?: string | null): Promise<MarkedFeature[]>
  /**
   * The customers' calls a run bills (run fields only), in ID order: rated, not deleted, started
   * before `before` (a stamp: the start of the day after the cutoff) and at or after `since`
   * (null: any), marked below `callMark` (the run's), and covered by no `Call Charges` row yet.
   * Both bounds are on the start, so Postgres reads only those months' partitions of calls.
   */
  unbilledCalls(customerIDs: readonly string[], before: string, callMark: number, since: string | null): Promise<RunCall[]>
}
