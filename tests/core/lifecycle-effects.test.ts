import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LifecycleAction } from '../../core/lifecycle/actions.js'
import { applyAction } from '../../core/lifecycle/apply-action.js'
import { featureBillTo } from '../../core/lifecycle/bill-to.js'
import { planCascade } from '../../core/lifecycle/cascade.js'
import { effectiveStateOn, stateOn, type LifecycleEvent } from '../../core/lifecycle/events.js'
import type { Level } from '../../core/lifecycle/levels.js'
import { performAction } from '../../core/lifecycle/perform-action.js'
import { toLifecycleNode, type LifecycleNode } from '../../core/lifecycle/state.js'
import { d, NOW, clock, presets, parse, state, node, dropped } from '../support/lifecycle-fixtures.js'

const test = suite('core/lifecycle effects: changes, bill-to dates, cascades, events')

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

test('a reinstate ends the ignore-traffic entries of the numbers it brings back, the root number too', () => {
  const back = (n: LifecycleNode) => ({ ...n, state: state({ isDropped: true, droppedBy: 'customers:1', updatedDate: d('2025-03-01') }) })
  const reinstate = (level: Level) => parse(level, 'reinstate', { status: 'Active', dateReinstate: '2025-03-20' })
  const droppedC = { ...C, state: state({ isDropped: true, updatedDate: d('2025-03-01') }) }
  // number 6 dropped on its own stays dropped, and keeps its entries
  assert.equal(planCascade(reinstate('customers'), droppedC, [back(N5), N6, back(S7)]).ignoreTrafficEnded, ['5'])
  assert.equal(planCascade(reinstate('numbers'), N6, tree).ignoreTrafficEnded, ['6'])
  assert.equal(planCascade(reinstate('services'), { ...S7, state: dropped }, tree).ignoreTrafficEnded, [])
  assert.equal(planCascade(parse('numbers', 'drop', { status: 'Dropped', dateDrop: '2025-03-01' }), N5, tree).ignoreTrafficEnded, [])
})

test('a reinstated feature records the days between its bill-to date and the reinstate as a gap (contract 5.5)', () => {
  const f = (billToDate: string, dropGaps: string | null = null) =>
    node('features', '9', { isDropped: true, updatedDate: d('2025-02-10') }, { billToDate: d(billToDate), dropGaps })
  const reinstate = parse('features', 'reinstate', { status: 'Active', dateReinstate: '2025-05-01' })
  const r = applyAction(reinstate, f('2025-02-10'))
  assert.is(r.billToDate, null)
  assert.equal(JSON.parse(r.dropGaps!), [{ from: '2025-02-11', to: '2025-04-30' }])
  // a later gap is added to those before
  const again = applyAction(reinstate, f('2025-02-10', JSON.stringify([{ from: '2024-06-01', to: '2024-06-30' }])))
  assert.equal(JSON.parse(again.dropGaps!), [{ from: '2024-06-01', to: '2024-06-30' }, { from: '2025-02-11', to: '2025-04-30' }])
  // charged through the day before the reinstate (a notice period), or after it: no gap
  assert.is(applyAction(reinstate, f('2025-04-30')).dropGaps, undefined)
  assert.is(applyAction(reinstate, f('2025-06-30')).dropGaps, undefined)
  // a customer leaving final bill with its reinstate: its features were charged through its final-bill date at most
  const customer = { ...C, state: state({ isDropped: true, isFinalBill: true }), finalBillDate: d('2025-01-31') }
  const plan = planCascade(parse('customers', 'reinstate', { status: 'Active', dateReinstate: '2025-05-01' }), customer, [
    node('features', '9', { isDropped: true, droppedBy: 'customers:1' }, { billToDate: d('2025-02-10') }),
  ])
  assert.equal(JSON.parse(plan.changes[0].changes.dropGaps!), [{ from: '2025-02-01', to: '2025-04-30' }])
})

test('a feature dropped on that day under a number that stays dropped does not come back', () => {
  const n = node('numbers', '5', { isDropped: true, updatedDate: d('2025-01-01') })
  const f = node('features', '11', { isDropped: true, updatedDate: d('2025-02-01') }, { numberID: '5' })
  const p = parse('customers', 'reinstate', { status: 'Active', dateReinstate: '2025-03-20', dateReinstateNumbersFeatures: '2025-02-01' })
  assert.equal(planCascade(p, { ...C, state: dropped }, [n, f]).changes, [])
})

test('suspend, unsuspend, makeNonBillable, makeBillable and finalBill do not cascade', () => {
  for (const action of ['suspend', 'unsuspend', 'makeNonBillable', 'makeBillable'] as const) {
    assert.equal(planCascade(parse('customers', action, { status: 'Active' }), C, tree), { changes: [], ignoreTraffic: [], ignoreTrafficEnded: [] })
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
