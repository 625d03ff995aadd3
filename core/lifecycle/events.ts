import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import type { ParsedAction } from './action-params.js'
import type { LifecycleAction } from './actions.js'
import { itemKey, type Level } from './levels.js'

/**
 * One state change of one item, as recorded (one per item an action or its cascade changes).
 * The billing engine replays them to know when an item was suspended, non-billable or dropped.
 */
export interface LifecycleEvent {
  readonly level: Level
  readonly itemId: string
  readonly action: LifecycleAction
  /** The date the change takes effect. */
  readonly date: DateOnly
  /** When it was recorded. */
  readonly stamp: Stamp
}

/** An item's state on a date, as far as billing cares. */
export interface StateOnDate {
  readonly suspended: boolean
  readonly billable: boolean
  readonly dropped: boolean
}

/** The state of an item with no events: active, not suspended, billable. */
export const initialStateOnDate: StateOnDate = { suspended: false, billable: true, dropped: false }

export const toEvent = (p: ParsedAction, level: Level, itemId: string): LifecycleEvent => ({
  level,
  itemId,
  action: p.action,
  date: p.date,
  stamp: p.stamp,
})

/**
 * One item's state on `date`. `events` must be that item's, in the order they were recorded
 * (ascending event ID). Each event takes effect on its date and holds from then on until a
 * later-recorded event changes the same flag: an action dated back overrides what was recorded
 * before it for the dates it covers. So the state after the last date equals the item's flags.
 */
export function stateOn(events: readonly LifecycleEvent[], date: DateOnly): StateOnDate {
  let state = initialStateOnDate
  for (const e of events) {
    if (e.date <= date) state = step(state, e.action)
  }
  return state
}

function step(s: StateOnDate, action: LifecycleAction): StateOnDate {
  switch (action) {
    case 'drop':
      return { ...s, dropped: true }
    case 'reinstate':
      return { ...s, dropped: false }
    case 'suspend':
      return { ...s, suspended: true }
    case 'unsuspend':
      return { ...s, suspended: false }
    case 'makeNonBillable':
      return { ...s, billable: false }
    case 'makeBillable':
      return { ...s, billable: true }
    case 'finalBill':
      // the final bill date lives on the customer (finalBillDate); it changes no flag here
      return s
  }
}

/**
 * The effective state on `date` of an item under its ancestors (contract 5.4): suspended or
 * dropped when it or any ancestor is, billable only when it and every ancestor are. `chainEvents`
 * holds the events of the item and its ancestors, each item's in recorded order.
 */
export function effectiveStateOn(chainEvents: readonly LifecycleEvent[], date: DateOnly): StateOnDate {
  // Most items of a billing run have no events at all: no map for them.
  if (chainEvents.length === 0) return initialStateOnDate
  const byItem = new Map<string, LifecycleEvent[]>()
  for (const e of chainEvents) {
    const key = itemKey(e.level, e.itemId)
    const list = byItem.get(key)
    if (list) list.push(e)
    else byItem.set(key, [e])
  }
  let combined = initialStateOnDate
  for (const events of byItem.values()) {
    const s = stateOn(events, date)
    combined = {
      suspended: combined.suspended || s.suspended,
      billable: combined.billable && s.billable,
      dropped: combined.dropped || s.dropped,
    }
  }
  return combined
}
