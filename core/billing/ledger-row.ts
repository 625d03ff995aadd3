import type { LedgerRow } from '../ports/ledger.js'

/** The transaction type names the engine writes (contract 9.2). */
export const transactionTypeNames = {
  connection: 'Connection Charge',
  recurring: 'Recurring Charge',
  refund: 'Recurring Charge Refund',
  adjustment: 'Recurring Charge Adjustment',
  adjustmentRefund: 'Recurring Charge Adjustment Refund',
  discount: 'Recurring Charge Discount',
} as const

/** What a row does: a charge for a period (segment), or a correction of a period's approved charges. */
export type EntryRole = 'charge' | 'refund' | 'adjustment' | 'adjustment_refund'

/**
 * The role of a feature's ledger row, read from its transaction type (custom types are charges,
 * and so is a discount: a negative part of its period's charge, settled with it).
 */
export function roleOf(transactionType: string): EntryRole {
  switch (transactionType) {
    case transactionTypeNames.refund:
      return 'refund'
    case transactionTypeNames.adjustment:
      return 'adjustment'
    case transactionTypeNames.adjustmentRefund:
      return 'adjustment_refund'
    default:
      return 'charge'
  }
}

/**
 * A row to insert (always unapproved). A charge leaves `VATRate` out: it takes the feature's rate
 * now. A refund or adjustment gives the rate of the rows it corrects, and a refund the exact VAT
 * it takes back (`VATAmount`), so a period refunded in full nets to zero VAT too, whatever rate
 * the feature has since.
 */
export type NewLedgerRow = Omit<LedgerRow, 'id' | 'approved'>

/** Fields of an unapproved row changed in place; `VATRate` only to say at which rate a correction's new amount is taxed. */
export type LedgerRowChanges = Partial<Pick<LedgerRow, 'transactionDate' | 'periodEnd' | 'quantity' | 'rate' | 'amount' | 'carrierCost' | 'VATRate' | 'VATAmount'>>

/** What a reconcile or a charge change writes: everything else in the ledger stays as it is. */
export interface LedgerDiff {
  readonly insert: readonly NewLedgerRow[]
  /** Only unapproved rows. */
  readonly update: readonly { readonly id: string; readonly set: LedgerRowChanges }[]
  /** IDs of unapproved rows. */
  readonly delete: readonly string[]
}

export const isEmptyDiff = (d: LedgerDiff): boolean => d.insert.length + d.update.length + d.delete.length === 0

/**
 * Columns of the unique index on the engine's rows (with `featureID` first): a period can hold one
 * row per transaction type and revision, and the revision of a new row is one above the highest of
 * its prefix, so two runs (or a run and a change) computing the same difference concurrently
 * collide on the index instead of charging twice.
 */
export const naturalKeyColumns = ['featureID', 'kind', 'series', 'periodStart', 'transactionType', 'revision'] as const

/** The natural key of a row as one string (for maps and for tests). */
export const naturalKey = (featureId: string, r: NewLedgerRow): string =>
  [featureId, r.kind, r.series, r.periodStart, r.transactionType, r.revision].join('|')

/**
 * The ledger after a diff, as the persistence layer would leave it: deletes, in-place updates, and
 * inserts (unapproved, with IDs from `newId`). A reference for adapters and tests.
 */
export function applyLedgerDiff(
  ledger: readonly LedgerRow[],
  diff: LedgerDiff,
  newId: (row: NewLedgerRow, index: number) => string,
): LedgerRow[] {
  const deleted = new Set(diff.delete)
  const changes = new Map(diff.update.map((u) => [u.id, u.set]))
  const kept = ledger.filter((r) => !deleted.has(r.id)).map((r) => ({ ...r, ...changes.get(r.id) }))
  return [...kept, ...diff.insert.map((r, i) => ({ ...r, id: newId(r, i), approved: false }))]
}
