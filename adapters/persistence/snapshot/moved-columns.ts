import type { Cell } from './export-snapshot.js'

/** Where a restore puts an older archive's values of a column a later migration took out of its table. */
export interface MovedColumn {
  /** The migration that took it out: only an archive from before it has the column. */
  readonly migration: string
  /**
   * The table that keeps the values now, a row per value that is not `skip`, keyed by the row's
   * `id`; none when the value is worked out where it is read instead.
   */
  readonly into?: { readonly table: string; readonly key: string; readonly column: string; readonly skip: Cell }
}

/**
 * Columns later migrations took out of their tables, by table: an archive from an older release
 * still has them, and restores with a later one (docs/restore.md).
 */
export const movedColumns: Readonly<Record<string, Readonly<Record<string, MovedColumn>>>> = {
  customers: {
    // Summed from the customer's overdue invoices where it is read.
    overdueAmount: { migration: '0015-overdue-amount-computed' },
    // Kept in held_credits, a row only while the customer holds some.
    heldCredit: { migration: '0021-held-credits', into: { table: 'held_credits', key: 'customerID', column: 'amount', skip: '0' } },
  },
}
