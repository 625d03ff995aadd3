import type { Clock } from '../ports/clock.js'
import type { Presets } from '../presets/presets.js'
import { parseActionParams, type ParsedAction } from './action-params.js'
import { assertAllowed } from './allowed.js'
import { applyAction } from './apply-action.js'
import { planCascade, type ItemChange } from './cascade.js'
import type { IgnoreTrafficEntry } from '../ports/lifecycle-log.js'
import { toEvent, type LifecycleEvent } from './events.js'
import type { LifecycleNode } from './state.js'

/** An action request on one loaded item. */
export interface ActionRequest {
  /** The `?action=` name. */
  readonly action: string
  /** The parsed JSON body. */
  readonly body: unknown
  readonly item: LifecycleNode
  /** The item's parents: its customer, and for a feature its number or service. */
  readonly ancestors: readonly LifecycleNode[]
  /** The item's numbers, services and features; only drop and reinstate read them. */
  readonly descendants: readonly LifecycleNode[]
}

/** Everything to write, in one transaction. */
export interface ActionOutcome {
  readonly parsed: ParsedAction
  /** The item's own changes first, then the cascade's. */
  readonly changes: readonly ItemChange[]
  /** One per changed item, in the same order. */
  readonly events: readonly LifecycleEvent[]
  readonly ignoreTraffic: readonly IgnoreTrafficEntry[]
  /** Numbers whose ignore-traffic entries end on the action's date (a reinstate brought them back). */
  readonly ignoreTrafficEnded: readonly string[]
}

/**
 * Runs a lifecycle action on loaded items, with the checks in the order of contract 2:
 * `unknown_action`, `missing_parameter`, `invalid_parameter`, then `state_not_allowed`.
 */
export function performAction(request: ActionRequest, presets: Presets, clock: Clock): ActionOutcome {
  return performParsedAction(parseActionParams(request.item.level, request.action, request.body, presets, clock), request)
}

/** `performAction` with the body already checked: the state, then the changes. */
export function performParsedAction(parsed: ParsedAction, request: Omit<ActionRequest, 'action' | 'body'>): ActionOutcome {
  const { item } = request
  assertAllowed(
    parsed.action,
    item.state,
    request.ancestors.map((a) => a.state),
  )
  const own: ItemChange = { level: item.level, id: item.id, changes: applyAction(parsed, item) }
  const cascade = planCascade(parsed, item, request.descendants)
  const changes = [own, ...cascade.changes]
  return {
    parsed,
    changes,
    events: changes.map((c) => toEvent(parsed, c.level, c.id)),
    ignoreTraffic: cascade.ignoreTraffic,
    ignoreTrafficEnded: cascade.ignoreTrafficEnded,
  }
}
