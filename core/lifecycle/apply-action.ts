import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import type { ParsedAction } from './action-params.js'
import { featureBillTo } from './bill-to.js'
import { dropGap, parseDropGaps, serializeDropGaps } from './drop-gaps.js'
import type { ItemKey } from './levels.js'
import type { LifecycleNode, LifecycleState } from './state.js'

/**
 * The fields an action writes on one item; only the keys present change. `statusChangedStamp` is
 * a date (the action's date, as billing-api.md types it); the `*Stamp` system timestamps are
 * the action's `stamp`. `droppedBy` is bookkeeping for cascades, stored but never on the wire.
 */
export interface StateChanges {
  readonly isDropped?: boolean
  readonly isSuspended?: boolean
  readonly isBillable?: boolean
  readonly isFinalBill?: boolean
  readonly status?: string
  readonly statusReason?: string | null
  readonly statusChangedStamp?: DateOnly
  /** Drop and reinstate: the action's date. */
  readonly updatedDate?: DateOnly
  readonly droppedStamp?: Stamp
  readonly reinstatedStamp?: Stamp
  readonly updatedStamp?: Stamp
  readonly droppedBy?: ItemKey | null
  /** Customers: set by finalBill, cleared by reinstate. */
  readonly finalBillDate?: DateOnly | null
  /** Features: set by drop (contract 5.5), cleared by reinstate. */
  readonly billToDate?: DateOnly | null
  /** Features: a reinstate adds the days between the bill-to date and itself (`DropGap`), as stored text. */
  readonly dropGaps?: string
  /** The notice date given with a drop or finalBill, on the item acted on. */
  readonly cancellationNoticeGivenDate?: DateOnly
}

const statusChange = (p: ParsedAction): StateChanges => ({
  status: p.status,
  statusReason: p.statusReason,
  statusChangedStamp: p.date,
  updatedStamp: p.stamp,
})

/**
 * What the action writes on the item it is invoked on. It does not check that the action is
 * allowed (`assertAllowed` does) and does not touch descendants (`planCascade` does).
 */
export function applyAction(p: ParsedAction, item: LifecycleNode): StateChanges {
  const notice = p.cancellationNoticeGivenDate ? { cancellationNoticeGivenDate: p.cancellationNoticeGivenDate } : {}
  switch (p.action) {
    case 'drop':
      return { ...dropChanges(p, item, null), ...notice }
    case 'reinstate':
      return reinstateChanges(p, item)
    case 'suspend':
      return { ...statusChange(p), isSuspended: true }
    case 'unsuspend':
      return { ...statusChange(p), isSuspended: false }
    case 'makeNonBillable':
      return { ...statusChange(p), isBillable: false }
    case 'makeBillable':
      return { ...statusChange(p), isBillable: true }
    case 'finalBill':
      return { ...statusChange(p), isFinalBill: true, finalBillDate: p.date, ...notice }
  }
}

/**
 * Drops one item: on its own (`droppedBy` null) or by the cascade of the named ancestor. A
 * feature gets its bill-to date; `dateBillTo` applies only to the feature acted on.
 */
export function dropChanges(p: ParsedAction, item: LifecycleNode, droppedBy: ItemKey | null): StateChanges {
  const changes: StateChanges = {
    ...statusChange(p),
    isDropped: true,
    droppedBy,
    updatedDate: p.date,
    droppedStamp: p.stamp,
  }
  if (item.level !== 'features') return changes
  const billToDate = featureBillTo({
    dateDrop: p.date,
    dateBillTo: droppedBy === null ? p.dateBillTo : null,
    cancellationNoticeGivenDate: p.cancellationNoticeGivenDate,
    terms: item.terms,
  })
  return { ...changes, billToDate }
}

/**
 * Reinstates one item; a customer leaves final bill. A feature loses its bill-to date and records
 * the days after it, up to the reinstate, as a gap its charges skip (`DropGap`): through its
 * customer's final-bill date at the latest when `finalBill` (a reinstated customer's) is given.
 */
export function reinstateChanges(p: ParsedAction, item: LifecycleNode, finalBill: DateOnly | null = null): StateChanges {
  const changes: StateChanges = {
    ...statusChange(p),
    isDropped: false,
    droppedBy: null,
    updatedDate: p.date,
    reinstatedStamp: p.stamp,
  }
  if (item.level === 'customers') return { ...changes, isFinalBill: false, finalBillDate: null }
  if (item.level !== 'features') return changes
  const gap = item.billToDate ? dropGap(item.billToDate, p.date, finalBill) : null
  if (!gap) return { ...changes, billToDate: null }
  return { ...changes, billToDate: null, dropGaps: serializeDropGaps([...parseDropGaps(item.dropGaps), gap]) }
}

/** The state after writing `changes`: what the persistence layer will read back. */
export function withChanges(state: LifecycleState, changes: StateChanges): LifecycleState {
  return {
    isDropped: changes.isDropped ?? state.isDropped,
    isSuspended: changes.isSuspended ?? state.isSuspended,
    isBillable: changes.isBillable ?? state.isBillable,
    isFinalBill: changes.isFinalBill ?? state.isFinalBill,
    droppedBy: changes.droppedBy !== undefined ? changes.droppedBy : state.droppedBy,
    updatedDate: changes.updatedDate ?? state.updatedDate,
  }
}
