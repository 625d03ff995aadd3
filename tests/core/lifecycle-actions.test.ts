import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DateOnly } from '../../core/dates/date-only.js'
import type { Stamp } from '../../core/dates/stamp.js'
import { BillingError, type ErrorCode } from '../../core/errors.js'
import { parseActionParams, type ParsedAction } from '../../core/lifecycle/action-params.js'
import { lifecycleActions, type LifecycleAction } from '../../core/lifecycle/actions.js'
import { assertAllowed } from '../../core/lifecycle/allowed.js'
import { applyAction } from '../../core/lifecycle/apply-action.js'
import { featureBillTo } from '../../core/lifecycle/bill-to.js'
import { planCascade } from '../../core/lifecycle/cascade.js'
import { effectiveStateOn, stateOn, type LifecycleEvent } from '../../core/lifecycle/events.js'
import { levels, type Level } from '../../core/lifecycle/levels.js'
import { performAction } from '../../core/lifecycle/perform-action.js'
import { initialState, toLifecycleNode, type LifecycleNode, type LifecycleState } from '../../core/lifecycle/state.js'
import type { Clock } from '../../core/ports/clock.js'
import { defaultPresets } from '../../core/presets/presets.js'

const test = suite('core/lifecycle actions')
const d = (s: string) => s as DateOnly
const NOW = '2025-03-15T10:00:00.000Z' as Stamp
const clock: Clock = { now: () => NOW, today: () => d('2025-03-15') }
const presets = defaultPresets

const parse = (level: Level, action: string, body: unknown): ParsedAction =>
  parseActionParams(level, action, body, presets, clock)

/** The error a call throws; fails the test when it throws nothing or something else. */
function errorOf(run: () => unknown): BillingError {
  try {
    run()
  } catch (e) {
    if (e instanceof BillingError) return e
    throw e
  }
  assert.unreachable('expected a BillingError')
  throw new Error('unreachable')
}

function assertFails(run: () => unknown, code: ErrorCode, named?: string) {
  const e = errorOf(run)
  assert.is(e.code, code, e.message)
  if (named) assert.ok(e.hint.includes(named), `hint "${e.hint}" should name ${named}`)
}

const state = (s: Partial<LifecycleState> = {}): LifecycleState => ({ ...initialState, ...s })
const node = (level: Level, id: string, s: Partial<LifecycleState> = {}, extra: Partial<LifecycleNode> = {}): LifecycleNode => ({
  level,
  id,
  customerID: level === 'customers' ? null : '1',
  numberID: null,
  serviceID: null,
  state: state(s),
  ...extra,
})

// ---- 5.2: which action is allowed when -------------------------------------------------------

const dropped = state({ isDropped: true })
const suspended = state({ isSuspended: true })
const nonBillable = state({ isBillable: false })
const finalBilled = state({ isFinalBill: true })
const rows: [LifecycleAction, LifecycleState, LifecycleState[], boolean, string][] = [
  ['drop', state(), [], true, 'drop: active item'],
  ['drop', dropped, [], false, 'drop: already dropped'],
  ['drop', suspended, [], true, 'drop: suspended but not dropped'],
  ['reinstate', dropped, [state()], true, 'reinstate: dropped, parent active'],
  ['reinstate', dropped, [], true, 'reinstate: dropped customer (no parent)'],
  ['reinstate', state(), [], false, 'reinstate: not dropped'],
  ['reinstate', dropped, [dropped], false, 'reinstate: parent dropped'],
  ['reinstate', dropped, [state(), dropped], false, 'reinstate: feature whose customer is dropped'],
  ['reinstate', dropped, [dropped, state()], false, 'reinstate: feature whose number is dropped'],
  ['suspend', state(), [], true, 'suspend: active, not suspended'],
  ['suspend', suspended, [], false, 'suspend: already suspended'],
  ['suspend', dropped, [], false, 'suspend: dropped'],
  ['unsuspend', suspended, [], true, 'unsuspend: suspended'],
  ['unsuspend', state({ isSuspended: true, isDropped: true }), [], true, 'unsuspend: suspended and dropped'],
  ['unsuspend', state(), [], false, 'unsuspend: not suspended'],
  ['makeNonBillable', state(), [], true, 'makeNonBillable: billable'],
  ['makeNonBillable', dropped, [], true, 'makeNonBillable: billable though dropped'],
  ['makeNonBillable', nonBillable, [], false, 'makeNonBillable: already non-billable'],
  ['makeBillable', nonBillable, [], true, 'makeBillable: non-billable'],
  ['makeBillable', state(), [], false, 'makeBillable: already billable'],
  ['finalBill', state(), [], true, 'finalBill: active customer'],
  ['finalBill', dropped, [], false, 'finalBill: dropped customer'],
  ['finalBill', finalBilled, [], false, 'finalBill: already in final bill'],
]

test('the allowed-when table of contract 5.2, row by row', () => {
  for (const [action, item, ancestors, allowed, label] of rows) {
    if (allowed) assert.not.throws(() => assertAllowed(action, item, ancestors), label)
    else assertFails(() => assertAllowed(action, item, ancestors), 'state_not_allowed')
  }
})

test('every action on every level is either allowed or refused with state_not_allowed', () => {
  const anyState = fc.record({
    isDropped: fc.boolean(),
    isSuspended: fc.boolean(),
    isBillable: fc.boolean(),
    isFinalBill: fc.boolean(),
    droppedBy: fc.constant(null),
    updatedDate: fc.constant(null),
  })
  fc.assert(
    fc.property(fc.constantFrom(...lifecycleActions), anyState, fc.array(anyState, { maxLength: 2 }), (a, s, anc) => {
      try {
        assertAllowed(a, s, anc)
        return true
      } catch (e) {
        return e instanceof BillingError && e.code === 'state_not_allowed'
      }
    }),
  )
})

// ---- parameters: contract 2's order and codes -----------------------------------------------

test('an action the level does not offer is unknown_action (400501)', () => {
  assertFails(() => parse('numbers', 'finalBill', { status: 'Final Bill', dateFinalBill: '2025-03-01' }), 'unknown_action')
  assertFails(() => parse('customers', 'explode', {}), 'unknown_action')
  assertFails(() => parse('features', 'changeRecurringCharge', {}), 'unknown_action')
})

test('a missing required parameter is missing_parameter (400503) and the hint names it', () => {
  for (const level of levels) {
    assertFails(() => parse(level, 'drop', { dateDrop: '2025-03-01' }), 'missing_parameter', 'status')
    assertFails(() => parse(level, 'drop', { status: 'Dropped' }), 'missing_parameter', 'dateDrop')
    assertFails(() => parse(level, 'reinstate', { status: 'Active' }), 'missing_parameter', 'dateReinstate')
    for (const action of ['suspend', 'unsuspend', 'makeNonBillable', 'makeBillable']) {
      assertFails(() => parse(level, action, {}), 'missing_parameter', 'status')
    }
  }
  assertFails(() => parse('customers', 'finalBill', { status: 'Final Bill' }), 'missing_parameter', 'dateFinalBill')
  // null is no value; both names in the hint when both are missing
  assertFails(() => parse('numbers', 'drop', { status: null, dateDrop: null }), 'missing_parameter', 'status')
  assertFails(() => parse('numbers', 'drop', {}), 'missing_parameter', 'dateDrop')
  assertFails(() => parse('numbers', 'drop', undefined), 'missing_parameter', 'status')
})

test('missing parameters (400503) are reported before bad values and unknown names (400504)', () => {
  assertFails(() => parse('customers', 'drop', { status: 'Nonsense', bogus: 1 }), 'missing_parameter', 'dateDrop')
  assertFails(() => parse('features', 'reinstate', { dateReinstate: 'yesterday' }), 'missing_parameter', 'status')
})

test('bad values are invalid_parameter (400504) naming the parameter', () => {
  const drop = { status: 'Dropped', dateDrop: '2025-03-01' }
  assertFails(() => parse('numbers', 'drop', { ...drop, dateDrop: '2025-02-30' }), 'invalid_parameter', 'dateDrop')
  assertFails(() => parse('numbers', 'drop', { ...drop, dateDrop: '2025-3-1' }), 'invalid_parameter', 'dateDrop')
  assertFails(() => parse('numbers', 'drop', { ...drop, status: 'Gone Fishing' }), 'invalid_parameter', 'status')
  assertFails(() => parse('numbers', 'drop', { ...drop, status: 'active' }), 'invalid_parameter', 'status')
  assertFails(() => parse('numbers', 'drop', { ...drop, status: 7 }), 'invalid_parameter', 'status')
  assertFails(() => parse('numbers', 'drop', { ...drop, statusReason: 'Bored' }), 'invalid_parameter', 'statusReason')
  assertFails(
    () => parse('numbers', 'drop', { ...drop, cancellationNoticeGivenDate: 20250301 }),
    'invalid_parameter',
    'cancellationNoticeGivenDate',
  )
  assertFails(
    () => parse('customers', 'drop', { ...drop, ignoreTrafficNumberType: 'Some Traffic' }),
    'invalid_parameter',
    'ignoreTrafficNumberType',
  )
  assertFails(() => parse('features', 'drop', { ...drop, dateBillTo: '31/03/2025' }), 'invalid_parameter', 'dateBillTo')
  assertFails(() => parse('services', 'suspend', { status: 'Suspended', dateSuspend: '' }), 'invalid_parameter', 'dateSuspend')
  assertFails(
    () => parse('customers', 'reinstate', { status: 'Active', dateReinstate: '2025-03-01', dateReinstateNumbersFeatures: 'x' }),
    'invalid_parameter',
    'dateReinstateNumbersFeatures',
  )
  // the hint of a preset shows allowed values
  const e = errorOf(() => parse('numbers', 'drop', { ...drop, status: 'Gone Fishing' }))
  assert.ok(e.hint.includes('"Active"'), e.hint)
})

test('a parameter the action does not take at that level is invalid_parameter naming it', () => {
  const drop = { status: 'Dropped', dateDrop: '2025-03-01' }
  assertFails(() => parse('services', 'drop', { ...drop, ignoreTrafficNumberType: 'All Traffic' }), 'invalid_parameter', 'ignoreTrafficNumberType')
  assertFails(() => parse('features', 'drop', { ...drop, ignoreTrafficNumberType: 'All Traffic' }), 'invalid_parameter', 'ignoreTrafficNumberType')
  assertFails(() => parse('numbers', 'drop', { ...drop, dateBillTo: '2025-03-31' }), 'invalid_parameter', 'dateBillTo')
  assertFails(
    () => parse('numbers', 'reinstate', { status: 'Active', dateReinstate: '2025-03-01', dateReinstateNumbersFeatures: '2025-03-01' }),
    'invalid_parameter',
    'dateReinstateNumbersFeatures',
  )
  assertFails(() => parse('customers', 'suspend', { status: 'Suspended', dateDrop: '2025-03-01' }), 'invalid_parameter', 'dateDrop')
  assertFails(() => parse('customers', 'suspend', { status: 'Suspended', Status: 'Suspended' }), 'invalid_parameter', 'Status')
})

test('the state check (400502) comes after the parameter checks', () => {
  const item = node('numbers', '5', { isDropped: true })
  const run = (body: unknown) => () =>
    performAction({ action: 'drop', body, item, ancestors: [node('customers', '1')], descendants: [] }, presets, clock)
  assertFails(run({ dateDrop: '2025-03-01' }), 'missing_parameter', 'status')
  assertFails(run({ status: 'Dropped', dateDrop: '2025-13-01' }), 'invalid_parameter', 'dateDrop')
  assertFails(run({ status: 'Dropped', dateDrop: '2025-03-01' }), 'state_not_allowed')
})

test('arbitrary bodies fail only with the action-parameter codes, missing first', () => {
  const names = fc.constantFrom('status', 'dateDrop', 'statusReason', 'cancellationNoticeGivenDate', 'ignoreTrafficNumberType', 'other')
  const values = fc.oneof(fc.constantFrom('Dropped', '2025-03-01', 'Other', 'All Traffic', null, '2025-02-30'), fc.anything())
  fc.assert(
    fc.property(fc.constantFrom(...levels), fc.dictionary(names, values), (level, body) => {
      try {
        parse(level, 'drop', body)
        return true
      } catch (e) {
        if (!(e instanceof BillingError)) return false
        const missing = ['status', 'dateDrop'].some((n) => body[n] === undefined || body[n] === null)
        return missing ? e.code === 'missing_parameter' : e.code === 'invalid_parameter'
      }
    }),
  )
})

test('optional dates default to today from the clock; required ones are taken as given', () => {
  for (const [action, param] of [
    ['suspend', 'dateSuspend'],
    ['unsuspend', 'dateUnsuspend'],
    ['makeNonBillable', 'dateMakeNonBillable'],
    ['makeBillable', 'dateMakeBillable'],
  ] as const) {
    assert.is(parse('services', action, { status: 'Active' }).date, '2025-03-15')
    assert.is(parse('services', action, { status: 'Active', [param]: '2025-01-02' }).date, '2025-01-02')
    assert.is(parse('services', action, { status: 'Active', [param]: null }).date, '2025-03-15')
  }
  const p = parse('customers', 'drop', { status: 'Dropped', dateDrop: '2025-04-01', ignoreTrafficNumberType: 'All Traffic' })
  assert.equal(p, {
    level: 'customers',
    action: 'drop',
    date: '2025-04-01',
    status: 'Dropped',
    statusReason: null,
    cancellationNoticeGivenDate: null,
    ignoreTrafficNumberType: 'All Traffic',
    dateBillTo: null,
    dateReinstateNumbersFeatures: null,
    stamp: NOW,
  })
})

// ---- what an action writes ----------------------------------------------------------------

test('drop and reinstate write flags, status, dates and stamps', () => {
  const num = node('numbers', '5')
  const drop = applyAction(parse('numbers', 'drop', { status: 'Dropped', dateDrop: '2025-03-01', statusReason: 'Customer Request' }), num)
  assert.equal(drop, {
    status: 'Dropped',
    statusReason: 'Customer Request',
    statusChangedStamp: '2025-03-01',
    updatedStamp: NOW,
    isDropped: true,
    droppedBy: null,
    updatedDate: '2025-03-01',
    droppedStamp: NOW,
  })
  const back = applyAction(parse('numbers', 'reinstate', { status: 'Active', dateReinstate: '2025-03-10' }), node('numbers', '5', { isDropped: true }))
  assert.equal(back, {
    status: 'Active',
    statusReason: null,
    statusChangedStamp: '2025-03-10',
    updatedStamp: NOW,
    isDropped: false,
    droppedBy: null,
    updatedDate: '2025-03-10',
    reinstatedStamp: NOW,
  })
})

test('suspend, unsuspend, makeNonBillable, makeBillable change one flag and the status only', () => {
  const svc = node('services', '7')
  const flags = {
    suspend: { isSuspended: true },
    unsuspend: { isSuspended: false },
    makeNonBillable: { isBillable: false },
    makeBillable: { isBillable: true },
  }
  for (const [action, flag] of Object.entries(flags)) {
    assert.equal(applyAction(parse('services', action, { status: 'Suspended' }), svc), {
      status: 'Suspended',
      statusReason: null,
      statusChangedStamp: '2025-03-15',
      updatedStamp: NOW,
      ...flag,
    })
  }
})

test('finalBill sets the flag and finalBillDate; reinstating the customer clears both', () => {
  const body = { status: 'Final Bill', dateFinalBill: '2025-03-31', cancellationNoticeGivenDate: '2025-02-28' }
  const c = applyAction(parse('customers', 'finalBill', body), node('customers', '1'))
  assert.is(c.isFinalBill, true)
  assert.is(c.finalBillDate, '2025-03-31')
  assert.is(c.cancellationNoticeGivenDate, '2025-02-28')
  assert.is(c.isDropped, undefined)
  const r = applyAction(parse('customers', 'reinstate', { status: 'Active', dateReinstate: '2025-04-01' }), node('customers', '1', { isDropped: true, isFinalBill: true }))
  assert.is(r.isFinalBill, false)
  assert.is(r.finalBillDate, null)
})

// ---- 5.5: bill-to dates, computed by hand ------------------------------------------------

const terms = (t: Partial<NonNullable<LifecycleNode['terms']>>) => ({
  minimumTermDate: null,
  noticePeriodLength: null,
  noticePeriodLengthType: null,
  cancellationNoticeGivenDate: null,
  ...t,
})

test('feature bill-to dates', () => {
  // dateBillTo wins over everything, even an earlier date
  assert.is(featureBillTo({ dateDrop: d('2025-03-10'), dateBillTo: d('2025-03-01'), terms: terms({ minimumTermDate: d('2025-12-31') }) }), '2025-03-01')
  // no terms: the drop date
  assert.is(featureBillTo({ dateDrop: d('2025-03-10') }), '2025-03-10')
  // minimum term later than the drop: 2025-06-30
  assert.is(featureBillTo({ dateDrop: d('2025-03-10'), terms: terms({ minimumTermDate: d('2025-06-30') }) }), '2025-06-30')
  // minimum term already past: the drop date
  assert.is(featureBillTo({ dateDrop: d('2025-03-10'), terms: terms({ minimumTermDate: d('2024-06-30') }) }), '2025-03-10')
  // 30 days from the drop: 2025-03-10 + 30 days = 2025-04-09, − 1 day = 2025-04-08
  assert.is(featureBillTo({ dateDrop: d('2025-03-10'), terms: terms({ noticePeriodLength: 30, noticePeriodLengthType: 'days' }) }), '2025-04-08')
  // 2 weeks: 2025-03-10 + 14 days = 2025-03-24, − 1 = 2025-03-23
  assert.is(featureBillTo({ dateDrop: d('2025-03-10'), terms: terms({ noticePeriodLength: 2, noticePeriodLengthType: 'weeks' }) }), '2025-03-23')
  // 1 month from notice given 2025-01-31: clamps to 2025-02-28, − 1 = 2025-02-27, later than the drop 2025-02-10
  assert.is(
    featureBillTo({ dateDrop: d('2025-02-10'), cancellationNoticeGivenDate: d('2025-01-31'), terms: terms({ noticePeriodLength: 1, noticePeriodLengthType: 'months' }) }),
    '2025-02-27',
  )
  // 1 year from 2024-02-29: 2025-02-28, − 1 = 2025-02-27
  assert.is(featureBillTo({ dateDrop: d('2024-03-01'), cancellationNoticeGivenDate: d('2024-02-29'), terms: terms({ noticePeriodLength: 1, noticePeriodLengthType: 'years' }) }), '2025-02-27')
  // notice ends 2025-04-09 but the minimum term 2025-12-31 is later
  assert.is(
    featureBillTo({ dateDrop: d('2025-03-10'), terms: terms({ noticePeriodLength: 1, noticePeriodLengthType: 'months', minimumTermDate: d('2025-12-31') }) }),
    '2025-12-31',
  )
  // notice given long ago (stored 2025-01-01, 1 month → 2025-01-31): the drop 2025-03-05 is later
  assert.is(featureBillTo({ dateDrop: d('2025-03-05'), terms: terms({ noticePeriodLength: 1, noticePeriodLengthType: 'Months', cancellationNoticeGivenDate: d('2025-01-01') }) }), '2025-03-05')
  // the notice date given with the drop (2025-03-01) wins over the stored one: 2025-04-01 − 1 = 2025-03-31
  assert.is(
    featureBillTo({ dateDrop: d('2025-03-05'), cancellationNoticeGivenDate: d('2025-03-01'), terms: terms({ noticePeriodLength: 1, noticePeriodLengthType: 'months', cancellationNoticeGivenDate: d('2025-01-01') }) }),
    '2025-03-31',
  )
})

test('a feature drop stores billToDate; dateBillTo applies to the feature acted on, not to cascades', () => {
  const f = node('features', '9', {}, { terms: terms({ noticePeriodLength: 30, noticePeriodLengthType: 'days' }) })
  const own = applyAction(parse('features', 'drop', { status: 'Dropped', dateDrop: '2025-03-10' }), f)
  assert.is(own.billToDate, '2025-04-08') // 2025-03-10 + 30 − 1
  const given = applyAction(parse('features', 'drop', { status: 'Dropped', dateDrop: '2025-03-10', dateBillTo: '2025-03-20' }), f)
  assert.is(given.billToDate, '2025-03-20')
  const plan = planCascade(parse('numbers', 'drop', { status: 'Dropped', dateDrop: '2025-03-10', cancellationNoticeGivenDate: '2025-03-01' }), node('numbers', '5'), [
    { ...f, numberID: '5' },
  ])
  assert.is(plan.changes[0].changes.billToDate, '2025-03-30') // notice 2025-03-01 + 30 − 1
})

// ---- 5.3: cascades ------------------------------------------------------------------------

const C = node('customers', '1')
const N5 = node('numbers', '5', {}, { number: '01632 960001' })
const N6 = node('numbers', '6', { isDropped: true, updatedDate: d('2025-02-01') }, { number: '01632 960002' })
const S7 = node('services', '7')
const F1 = node('features', '11', {}, { numberID: '5' })
const F2 = node('features', '12', {}, { serviceID: '7' })
const F3 = node('features', '13')
const F4 = node('features', '14', { isDropped: true, droppedBy: 'numbers:6', updatedDate: d('2025-02-01') }, { numberID: '6' })
const OTHER = node('features', '99', {}, { customerID: '2' })
const tree = [N5, N6, S7, F1, F2, F3, F4, OTHER]
const ids = (plan: ReturnType<typeof planCascade>) => plan.changes.map((c) => `${c.level}:${c.id}`)

test('dropping a customer drops what is not already dropped, marked by the customer', () => {
  const p = parse('customers', 'drop', { status: 'Dropped', dateDrop: '2025-03-01', ignoreTrafficNumberType: 'Outbound Only' })
  const plan = planCascade(p, C, tree)
  assert.equal(ids(plan), ['numbers:5', 'services:7', 'features:11', 'features:12', 'features:13'])
  for (const c of plan.changes) {
    assert.is(c.changes.isDropped, true)
    assert.is(c.changes.droppedBy, 'customers:1')
    assert.is(c.changes.updatedDate, '2025-03-01')
  }
  // ignore-traffic entries for the numbers this drop takes only
  assert.equal(plan.ignoreTraffic, [{ numberID: '5', number: '01632 960001', type: 'Outbound Only', fromDate: '2025-03-01' }])
})

test('dropping a number drops its features; an entry for the number itself with ignoreTrafficNumberType', () => {
  const p = parse('numbers', 'drop', { status: 'Dropped', dateDrop: '2025-03-01', ignoreTrafficNumberType: 'All Traffic' })
  const plan = planCascade(p, N5, tree)
  assert.equal(ids(plan), ['features:11'])
  assert.is(plan.changes[0].changes.droppedBy, 'numbers:5')
  assert.equal(plan.ignoreTraffic, [{ numberID: '5', number: '01632 960001', type: 'All Traffic', fromDate: '2025-03-01' }])
  assert.equal(planCascade(parse('numbers', 'drop', { status: 'Dropped', dateDrop: '2025-03-01' }), N5, tree).ignoreTraffic, [])
})

test('reinstating brings back exactly what the drop took; dateReinstateNumbersFeatures adds same-day own drops', () => {
  const byC = (n: LifecycleNode) => ({ ...n, state: state({ ...n.state, isDropped: true, droppedBy: n.state.isDropped ? n.state.droppedBy : 'customers:1', updatedDate: n.state.isDropped ? n.state.updatedDate : d('2025-03-01') }) })
  const after = [byC(N5), N6, byC(S7), byC(F1), byC(F2), byC(F3), F4]
  const dropped = { ...C, state: state({ isDropped: true, updatedDate: d('2025-03-01') }) }
  const plain = planCascade(parse('customers', 'reinstate', { status: 'Active', dateReinstate: '2025-03-20' }), dropped, after)
  assert.equal(ids(plain), ['numbers:5', 'services:7', 'features:11', 'features:12', 'features:13'])
  // number 6 dropped on its own on 2025-02-01 comes back, and so does feature 14 that its drop took
  const sameDay = planCascade(
    parse('customers', 'reinstate', { status: 'Active', dateReinstate: '2025-03-20', dateReinstateNumbersFeatures: '2025-02-01' }),
    dropped,
    after,
  )
  assert.equal(ids(sameDay), ['numbers:5', 'numbers:6', 'services:7', 'features:11', 'features:12', 'features:13', 'features:14'])
  for (const c of sameDay.changes) assert.equal([c.changes.isDropped, c.changes.droppedBy], [false, null])
  // another date: number 6 stays dropped, and so does its feature
  const otherDay = planCascade(
    parse('customers', 'reinstate', { status: 'Active', dateReinstate: '2025-03-20', dateReinstateNumbersFeatures: '2025-02-02' }),
    dropped,
    after,
  )
  assert.equal(ids(otherDay), ids(plain))
})

test('a feature dropped on that day under a number that stays dropped does not come back', () => {
  const n = node('numbers', '5', { isDropped: true, updatedDate: d('2025-01-01') })
  const f = node('features', '11', { isDropped: true, updatedDate: d('2025-02-01') }, { numberID: '5' })
  const p = parse('customers', 'reinstate', { status: 'Active', dateReinstate: '2025-03-20', dateReinstateNumbersFeatures: '2025-02-01' })
  assert.equal(planCascade(p, { ...C, state: dropped }, [n, f]).changes, [])
})

test('suspend, unsuspend, makeNonBillable, makeBillable and finalBill do not cascade', () => {
  for (const action of ['suspend', 'unsuspend', 'makeNonBillable', 'makeBillable'] as const) {
    assert.equal(planCascade(parse('customers', action, { status: 'Active' }), C, tree), { changes: [], ignoreTraffic: [] })
  }
  const fb = parse('customers', 'finalBill', { status: 'Final Bill', dateFinalBill: '2025-03-31' })
  assert.equal(planCascade(fb, C, tree).changes, [])
})

test('performAction returns the item first, the cascade after, one event per change', () => {
  const out = performAction(
    { action: 'drop', body: { status: 'Dropped', dateDrop: '2025-03-01' }, item: N5, ancestors: [C], descendants: tree },
    presets,
    clock,
  )
  assert.equal(out.changes.map((c) => `${c.level}:${c.id}`), ['numbers:5', 'features:11'])
  assert.equal(out.events, [
    { level: 'numbers', itemId: '5', action: 'drop', date: '2025-03-01', stamp: NOW },
    { level: 'features', itemId: '11', action: 'drop', date: '2025-03-01', stamp: NOW },
  ])
})

test('toLifecycleNode reads a stored row', () => {
  const n = toLifecycleNode('features', {
    id: '11',
    customerID: '1',
    numberID: '5',
    serviceID: null,
    isDropped: true,
    isSuspended: false,
    isBillable: null,
    droppedBy: 'numbers:5',
    updatedDate: '2025-03-01',
    noticePeriodLength: 3,
    noticePeriodLengthType: 'months',
    minimumTermDate: null,
  })
  assert.equal(n.state, { isDropped: true, isSuspended: false, isBillable: true, isFinalBill: false, droppedBy: 'numbers:5', updatedDate: '2025-03-01' })
  assert.equal([n.customerID, n.numberID, n.serviceID], ['1', '5', null])
  assert.is(n.terms?.noticePeriodLength, 3)
})

// ---- events: state on a date ---------------------------------------------------------------

const ev = (action: LifecycleAction, date: string, level: Level = 'features', itemId = '11'): LifecycleEvent => ({
  level,
  itemId,
  action,
  date: d(date),
  stamp: NOW,
})

test('stateOn: each event holds from its date; a later-recorded back-dated event overrides', () => {
  const events = [ev('suspend', '2025-01-10'), ev('unsuspend', '2025-02-01'), ev('makeNonBillable', '2025-03-01')]
  assert.equal(stateOn(events, d('2025-01-09')), { suspended: false, billable: true, dropped: false })
  assert.equal(stateOn(events, d('2025-01-10')), { suspended: true, billable: true, dropped: false })
  assert.equal(stateOn(events, d('2025-02-01')), { suspended: false, billable: true, dropped: false })
  assert.equal(stateOn(events, d('2025-03-01')), { suspended: false, billable: false, dropped: false })
  // recorded: suspend from 01-10, then unsuspend back-dated to 01-05: never suspended
  const undone = [ev('suspend', '2025-01-10'), ev('unsuspend', '2025-01-05')]
  for (const day of ['2025-01-04', '2025-01-07', '2025-01-12']) assert.is(stateOn(undone, d(day)).suspended, false)
})

test('effectiveStateOn combines the item with its ancestors', () => {
  const chain = [
    ev('makeNonBillable', '2025-02-01', 'customers', '1'),
    ev('suspend', '2025-01-15', 'numbers', '5'),
    ev('drop', '2025-03-01', 'features', '11'),
  ]
  assert.equal(effectiveStateOn(chain, d('2025-01-01')), { suspended: false, billable: true, dropped: false })
  assert.equal(effectiveStateOn(chain, d('2025-01-20')), { suspended: true, billable: true, dropped: false })
  assert.equal(effectiveStateOn(chain, d('2025-02-01')), { suspended: true, billable: false, dropped: false })
  assert.equal(effectiveStateOn(chain, d('2025-03-01')), { suspended: true, billable: false, dropped: true })
  assert.equal(effectiveStateOn([], d('2025-03-01')), { suspended: false, billable: true, dropped: false })
})

test.run()
