import { parseDate, type DateOnly } from '../dates/date-only.js'
import type { FieldValue } from '../fields/item.js'
import { parseItemKey, type ItemKey, type Level, type ParentIds } from './levels.js'

/** The state of one item as the lifecycle sees it (contract 5.1 plus the cascade bookkeeping). */
export interface LifecycleState {
  readonly isDropped: boolean
  readonly isSuspended: boolean
  readonly isBillable: boolean
  /** Customers only; always false elsewhere. */
  readonly isFinalBill: boolean
  /**
   * Null when the item is not dropped or was dropped on its own; else the key of the ancestor
   * whose drop cascaded (`'customers:12'`), so that reinstating that ancestor brings it back.
   */
  readonly droppedBy: ItemKey | null
  /** The date of the last drop or reinstate; while dropped, the item's own drop date. */
  readonly updatedDate: DateOnly | null
}

/** A new item: active, not suspended, billable (contract 4). */
export const initialState: LifecycleState = {
  isDropped: false,
  isSuspended: false,
  isBillable: true,
  isFinalBill: false,
  droppedBy: null,
  updatedDate: null,
}

/** What a feature's bill-to date depends on (contract 5.5). */
export interface FeatureTerms {
  readonly minimumTermDate: DateOnly | null
  readonly noticePeriodLength: number | null
  /** `days`, `weeks`, `months` or `years`. */
  readonly noticePeriodLengthType: string | null
  /** The feature's stored notice date; a notice date given with the drop wins over it. */
  readonly cancellationNoticeGivenDate: DateOnly | null
}

/** One item loaded for an action: where it hangs, its state, and what its drop needs. */
export interface LifecycleNode extends ParentIds {
  readonly level: Level
  readonly id: string
  readonly state: LifecycleState
  /** Features only. */
  readonly terms?: FeatureTerms
  /** Numbers only: the telephone number, copied into ignore-traffic entries. */
  readonly number?: string | null
  /** Features only: charged through this date while dropped (contract 5.5); a reinstate starts again after a gap (`DropGap`). */
  readonly billToDate?: DateOnly | null
  /** Features only: the stored `dropGaps` text, which a reinstate adds to. */
  readonly dropGaps?: string | null
  /** Customers only: set while in final bill; caps the bill-to date of the features a reinstate brings back. */
  readonly finalBillDate?: DateOnly | null
}

type Row = { readonly id: string } & Readonly<Record<string, FieldValue | undefined>>

const text = (v: FieldValue | undefined): string | null => (typeof v === 'string' && v !== '' ? v : null)

/** Reads a stored row (domain values keyed by field name, plus `droppedBy`) into a node. */
export function toLifecycleNode(level: Level, row: Row): LifecycleNode {
  const droppedBy = text(row.droppedBy)
  const node: LifecycleNode = {
    level,
    id: row.id,
    customerID: level === 'customers' ? null : text(row.customerID),
    numberID: level === 'features' ? text(row.numberID) : null,
    serviceID: level === 'features' ? text(row.serviceID) : null,
    state: {
      isDropped: row.isDropped === true,
      isSuspended: row.isSuspended === true,
      // an unset flag reads as the initial state
      isBillable: row.isBillable !== false,
      isFinalBill: level === 'customers' && row.isFinalBill === true,
      droppedBy: droppedBy !== null && parseItemKey(droppedBy) ? (droppedBy as ItemKey) : null,
      updatedDate: parseDate(row.updatedDate),
    },
  }
  if (level === 'numbers') return { ...node, number: text(row.number) }
  if (level === 'customers') return { ...node, finalBillDate: node.state.isFinalBill ? parseDate(row.finalBillDate) : null }
  if (level !== 'features') return node
  const length = row.noticePeriodLength
  return {
    ...node,
    billToDate: parseDate(row.billToDate),
    dropGaps: text(row.dropGaps),
    terms: {
      minimumTermDate: parseDate(row.minimumTermDate),
      noticePeriodLength: typeof length === 'number' && Number.isFinite(length) ? length : null,
      noticePeriodLengthType: text(row.noticePeriodLengthType),
      cancellationNoticeGivenDate: parseDate(row.cancellationNoticeGivenDate),
    },
  }
}
