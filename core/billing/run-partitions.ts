import type { CustomerWeight, PlannedPartition } from '../ports/run-partitions.js'

/**
 * Features a partition of a billing run aims at (default of `RunOptions.partitionFeatures`):
 * enough that claiming one (a statement and a lease) is nothing beside billing it (20 batches of
 * 1,000 features), few enough that a 1,000,000-feature run has 50 to share among its workers,
 * so the last partitions to finish leave the others idle only briefly.
 */
export const PARTITION_FEATURES = 20_000

/**
 * Splits a run's customers into consecutive ID ranges of about `target` weight each, a
 * customer weighing its features plus one (a customer without features still has calls and an
 * invoice). Fed the customers in ID order, a page at a time, so a run of ten million customers
 * is split without holding them all. A customer is never split between partitions; one heavier
 * than `target` is a partition of its own.
 */
export class PartitionSplitter {
  private readonly done: PlannedPartition[] = []
  private weight = 0
  private customers = 0

  constructor(
    /** Where the run starts: the first partition covers the customers after it. */
    private after: string,
    private readonly target: number,
  ) {}

  /** Adds the next customers (in ID order, after those added before). */
  add(page: readonly CustomerWeight[]): void {
    for (const c of page) {
      this.weight += c.features + 1
      this.customers += 1
      if (this.weight >= this.target) {
        this.done.push({ afterCustomerID: this.after, lastCustomerID: c.id, customersTotal: this.customers })
        this.after = c.id
        this.weight = 0
        this.customers = 0
      }
    }
  }

  /**
   * The partitions: those filled so far, then an open-ended last one with the rest (customers
   * created while the run goes are billed too). A last partition that would hold nothing yet is
   * merged into the one before by opening that one's end instead.
   */
  finish(): PlannedPartition[] {
    const out = [...this.done]
    if (this.customers === 0 && out.length > 0) {
      const tail = out.pop()!
      out.push({ ...tail, lastCustomerID: null })
    } else {
      out.push({ afterCustomerID: this.after, lastCustomerID: null, customersTotal: this.customers })
    }
    return out
  }
}

/** The whole run as one partition (a database without parallel writers: see `RunPartitions.parallel`). */
export const wholeRun = (after: string, customers: number): PlannedPartition[] => [{ afterCustomerID: after, lastCustomerID: null, customersTotal: customers }]
