/** Where a billing run's partition stands. `Planning`: the run's first partition, not yet split (calls not yet rated). */
export type PartitionStatus = 'Planning' | 'Open' | 'Done'

/**
 * A range of customer IDs of one billing run, billed by one worker at a time: the customers
 * with IDs after `afterCustomerID`, through `lastCustomerID` (null: every later one, customers
 * created during the run included).
 */
export interface RunPartition {
  readonly id: string
  readonly billingRunID: string
  readonly status: PartitionStatus
  readonly afterCustomerID: string
  readonly lastCustomerID: string | null
  /** The last customer billed (committed with the batch that billed it); `afterCustomerID` before any. */
  readonly progressCustomerID: string
  /** Customers in the range when it was planned. */
  readonly customersTotal: number
  readonly customersDone: number
  readonly invoiceCount: number
}

/** A partition to store when a run is split (core/billing/run-partitions.ts). */
export interface PlannedPartition {
  readonly afterCustomerID: string
  readonly lastCustomerID: string | null
  readonly customersTotal: number
}

/** What a committed step of a partition did, stored with it. */
export interface PartitionStep {
  readonly progressCustomerID: string
  readonly customers: number
  readonly invoices: number
  /** The partition's last customer is billed. */
  readonly done: boolean
}

/** A run's progress summed over its partitions. */
export interface PartitionTotals {
  /** Customers planned, or billed where more were billed than planned (customers created since). */
  readonly customersTotal: number
  readonly customersDone: number
  readonly invoiceCount: number
  /** Every partition of the run. */
  readonly partitions: number
  /** Partitions not yet done (a `Planning` one included). */
  readonly open: number
  /** Open partitions a live lease holds: the workers billing the run now. */
  readonly active: number
  /** A `Planning` partition a live lease holds: a worker is splitting the run now. */
  readonly planning: boolean
}

/** A customer and how many features it has, in ID order: what a run's partitions are sized by. */
export interface CustomerWeight {
  readonly id: string
  readonly features: number
}

/**
 * A billing run's partitions, claimed by workers under expiring leases: every worker (and
 * every server running the scheduler) claims partitions of the run in progress, so several bill
 * one run together, and a killed worker's partition is claimed again once its lease lapses.
 * Lease times are the database host's clock as the adapter reads it, never the domain's Clock
 * (a fixed clock must not keep leases alive or dead).
 */
export interface RunPartitions {
  /**
   * Whether partitions are billed by several processes at once. False where the database
   * serialises writers (SQLite): a run is then one partition, billed by one worker.
   */
  readonly parallel: boolean
  /** Stores partitions of a run, unclaimed. */
  create(billingRunID: string, partitions: readonly (PlannedPartition & { readonly status: PartitionStatus })[]): Promise<void>
  /**
   * Claims for `ttlMs` an open partition of the run (the first by ID) that no live lease holds,
   * skipping any another worker is claiming at that moment; null when there is none.
   */
  claim(billingRunID: string, holder: string, ttlMs: number): Promise<RunPartition | null>
  /**
   * Records a committed step of a partition `holder` holds and extends its lease; false when
   * the lease was lost (taken over after lapsing): the caller rolls its step back.
   */
  advance(partitionID: string, holder: string, ttlMs: number, step: PartitionStep): Promise<boolean>
  /**
   * Replaces the `Planning` partition `holder` holds with the run's partitions; false when it
   * no longer holds it (another worker planned the run since).
   */
  split(partitionID: string, holder: string, partitions: readonly PlannedPartition[]): Promise<boolean>
  /**
   * Opens every partition of a finished run again from its start, with no progress and no lease:
   * an approved review run (contract 16.1) is finalised over the ranges it was drafted in, by
   * the workers that claim them as they do a run's.
   */
  restart(billingRunID: string): Promise<void>
  /** Gives a partition's lease up (an interrupted worker), so another may claim it at once. */
  release(partitionID: string, holder: string): Promise<void>
  /** The run's progress, summed over its partitions. */
  totals(billingRunID: string): Promise<PartitionTotals>
  /** Customers after `afterID` in ID order, with their feature counts, `limit` at most. */
  customerWeights(afterID: string, limit: number): Promise<CustomerWeight[]>
}
