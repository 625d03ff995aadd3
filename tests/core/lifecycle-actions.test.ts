import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BillingError } from '../../core/errors.js'
import { lifecycleActions, type LifecycleAction } from '../../core/lifecycle/actions.js'
import { assertAllowed } from '../../core/lifecycle/allowed.js'
import { levels } from '../../core/lifecycle/levels.js'
import { performAction } from '../../core/lifecycle/perform-action.js'
import type { LifecycleState } from '../../core/lifecycle/state.js'
import { NOW, clock, presets, parse, errorOf, assertFails, state, node, dropped, suspended, nonBillable, finalBilled } from '../support/lifecycle-fixtures.js'

const test = suite('core/lifecycle actions')

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

test.run()
