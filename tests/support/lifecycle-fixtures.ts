import * as assert from 'uvu/assert'
import type { DateOnly } from '../../core/dates/date-only.js'
import type { Stamp } from '../../core/dates/stamp.js'
import { BillingError, type ErrorCode } from '../../core/errors.js'
import { parseActionParams, type ParsedAction } from '../../core/lifecycle/action-params.js'
import type { Level } from '../../core/lifecycle/levels.js'
import { initialState, type LifecycleNode, type LifecycleState } from '../../core/lifecycle/state.js'
import type { Clock } from '../../core/ports/clock.js'
import { defaultPresets } from '../../core/presets/presets.js'

/** Shared by the lifecycle unit tests: a fixed clock, parsing, error checks and node builders. */
export const d = (s: string) => s as DateOnly
export const NOW = '2025-03-15T10:00:00.000Z' as Stamp
export const clock: Clock = { now: () => NOW, today: () => d('2025-03-15') }
export const presets = defaultPresets

export const parse = (level: Level, action: string, body: unknown): ParsedAction =>
  parseActionParams(level, action, body, presets, clock)

/** The error a call throws; fails the test when it throws nothing or something else. */
export function errorOf(run: () => unknown): BillingError {
  try {
    run()
  } catch (e) {
    if (e instanceof BillingError) return e
    throw e
  }
  assert.unreachable('expected a BillingError')
  throw new Error('unreachable')
}

export function assertFails(run: () => unknown, code: ErrorCode, named?: string) {
  const e = errorOf(run)
  assert.is(e.code, code, e.message)
  if (named) assert.ok(e.hint.includes(named), `hint "${e.hint}" should name ${named}`)
}

export const state = (s: Partial<LifecycleState> = {}): LifecycleState => ({ ...initialState, ...s })
export const node = (level: Level, id: string, s: Partial<LifecycleState> = {}, extra: Partial<LifecycleNode> = {}): LifecycleNode => ({
  level,
  id,
  customerID: level === 'customers' ? null : '1',
  numberID: null,
  serviceID: null,
  state: state(s),
  ...extra,
})

// ---- 5.2: which action is allowed when -------------------------------------------------------

export const dropped = state({ isDropped: true })
export const suspended = state({ isSuspended: true })
export const nonBillable = state({ isBillable: false })
export const finalBilled = state({ isFinalBill: true })
