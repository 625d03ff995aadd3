import { billingFeature } from '../support/billing-feature.js'
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { BillingFeature } from '../../core/billing/billing-feature.js'
import { planChargeChange, type ChargeChangeConfig, type ChargeChangeParams } from '../../core/billing/charge-change.js'
import { initialHistory, type ChargeVersion } from '../../core/billing/charge-history.js'
import { dueDateOf, planFeatureBilling, type BillingCutoff } from '../../core/billing/feature-billing.js'
import { totalValueCharged } from '../../core/billing/feature-totals.js'
import { applyLedgerDiff, isEmptyDiff, naturalKey, type LedgerDiff, type LedgerRow } from '../../core/billing/ledger-row.js'
import { periodContaining, serviceChargeIntervals, type ServiceChargeInterval } from '../../core/billing/periods.js'
import { addDays, addMonths, daysBetween, daysInMonth, maxDate, minDate, type DateOnly } from '../../core/dates/date-only.js'
import { isBillingError, type ErrorCode } from '../../core/errors.js'
import { featureBillTo } from '../../core/lifecycle/bill-to.js'
import { formatMoney, parseMoney, type Money } from '../../core/money/money.js'

const test = suite('core/billing reconcile')
const d = (s: string): DateOnly => s as DateOnly
const m = (s: string): Money => parseMoney(s)!
const show = (x: Money): string => formatMoney(x).slice(0, -2)
const config: ChargeChangeConfig = {
  transactionTypes: ['Connection Charge', 'Recurring Charge', 'Recurring Charge Refund', 'Recurring Charge Adjustment', 'Recurring Charge Adjustment Refund'],
}

const feature = billingFeature

/** A feature with its stored history and ledger, changed the way the persistence layer would. */
class World {
  ledger: LedgerRow[] = []
  history: ChargeVersion[]
  private ids = 0
  constructor(
    public feature: BillingFeature,
    charge: string | Money,
    count = 1,
  ) {
    this.history = initialHistory(feature.startDate!, typeof charge === 'string' ? m(charge) : charge, count)
  }
  private write(diff: LedgerDiff): void {
    this.ledger = applyLedgerDiff(this.ledger, diff, () => String(++this.ids))
  }
  /** A billing run (or an action's reconcile, with cutoff null) for this feature. */
  bill(cutoff: string | null, chargeable = true): LedgerDiff {
    const plan = planFeatureBilling(this.feature, this.history, this.ledger, { cutoff: cutoff ? d(cutoff) : null, chargeable })
    this.write(plan.diff)
    return plan.diff
  }
  approve(): void {
    this.ledger = this.ledger.map((r) => ({ ...r, approved: true }))
  }
  change(params: ChargeChangeParams, cfg = config): LedgerDiff {
    const plan = planChargeChange(params, this.feature, this.history, this.ledger, cfg)
    this.history = plan.history
    this.write(plan.diff)
    return plan.diff
  }
  drop(billTo: DateOnly): LedgerDiff {
    this.feature = { ...this.feature, billToDate: billTo, isDropped: true }
    return this.bill(null, false)
  }
  get due(): DateOnly | null {
    return dueDateOf(this.feature, this.history, this.ledger)
  }
  get total(): string {
    return show(totalValueCharged(this.ledger))
  }
  plan(at: BillingCutoff): LedgerDiff {
    return planFeatureBilling(this.feature, this.history, this.ledger, at).diff
  }
}

/** "type start..end amount" for each inserted row. */
const inserted = (diff: LedgerDiff): string[] =>
  diff.insert.map((r) => `${r.transactionType} ${r.periodStart}..${r.periodEnd} ${show(r.amount)}`)
/** "id: field=value ..." for each in-place update. */
const updated = (diff: LedgerDiff): string[] =>
  diff.update.map((u) => `${u.id}: ${Object.entries(u.set).map(([k, v]) => `${k}=${typeof v === 'bigint' ? show(v as Money) : v}`).join(' ')}`)

function throwsCode(fn: () => unknown, code: ErrorCode): void {
  try {
    fn()
  } catch (e) {
    assert.ok(isBillingError(e), `expected a BillingError, got ${String(e)}`)
    assert.is(e.code, code)
    assert.ok(e.hint.length > 0, 'an error carries a hint')
    return
  }
  assert.unreachable(`expected ${code}`)
}

test('a run inserts what is due in advance; a re-run or a smaller cutoff writes nothing', () => {
  const w = new World(feature({ totalFeatureValue: m('100') }), '10')
  assert.equal(inserted(w.bill('2025-01-01')), ['Recurring Charge 2025-01-01..2025-01-31 10.00'])
  assert.ok(isEmptyDiff(w.bill('2025-01-01')))
  assert.equal(inserted(w.bill('2025-03-01')), ['Recurring Charge 2025-02-01..2025-02-28 10.00', 'Recurring Charge 2025-03-01..2025-03-31 10.00'])
  assert.ok(isEmptyDiff(w.bill('2025-01-15'))) // charged periods are never taken back by an earlier cutoff
  const plan = planFeatureBilling(w.feature, w.history, w.ledger, { cutoff: d('2025-03-01'), chargeable: true })
  assert.is(plan.dueDate, '2025-04-01') // the day after Mar 31, the last day charged
  assert.is(show(plan.totalValueCharged), '30.00') // 3 × 10.00
  assert.is(show(plan.totalValueRemaining!), '70.00') // 100.00 − 30.00
})

test('the connection charge is written once, with the first recurring charge', () => {
  const w = new World(feature({ connectionCharge: m('49.99') }), '10', 2)
  assert.equal(inserted(w.bill('2025-01-01')), ['Connection Charge 2025-01-01..2025-01-01 99.98', 'Recurring Charge 2025-01-01..2025-01-31 20.00']) // 49.99 × 2; 10 × 2
  w.approve()
  assert.ok(isEmptyDiff(w.bill('2025-01-01')))
  assert.is(w.ledger[0].kind, 'connection')
})

test('suspension defers recurring charges; the first chargeable run back-fills every period due', () => {
  const w = new World(feature(), '10')
  assert.equal(inserted(w.bill('2025-01-01')), ['Recurring Charge 2025-01-01..2025-01-31 10.00'])
  w.approve()
  assert.ok(isEmptyDiff(w.bill('2025-02-01', false))) // suspended on the cutoff
  assert.ok(isEmptyDiff(w.bill('2025-03-01', false)))
  assert.is(w.due, '2025-02-01')
  assert.equal(inserted(w.bill('2025-04-01', true)), [
    'Recurring Charge 2025-02-01..2025-02-28 10.00',
    'Recurring Charge 2025-03-01..2025-03-31 10.00',
    'Recurring Charge 2025-04-01..2025-04-30 10.00',
  ]) // 3 × 10.00 back-filled
  assert.is(w.total, '40.00')
})

test('drop with a notice period: the unapproved last period is cut in place', () => {
  const w = new World(feature(), '30')
  w.bill('2025-03-01')
  w.approve()
  w.bill('2025-04-01') // April, unapproved (row id 4)
  const terms = { minimumTermDate: null, noticePeriodLength: 1, noticePeriodLengthType: 'months', cancellationNoticeGivenDate: null }
  const billTo = featureBillTo({ dateDrop: d('2025-03-10'), terms })
  assert.is(billTo, '2025-04-09') // Mar 10 + 1 month − 1 day
  const diff = w.drop(billTo)
  assert.equal(inserted(diff), [])
  assert.equal(updated(diff), ['4: periodEnd=2025-04-09 amount=9.00']) // Apr 1–9 = 9 of 30 days: 30 × 9/30
  assert.is(w.due, '2025-04-10')
  assert.ok(isEmptyDiff(w.bill('2025-06-01'))) // nothing after the bill-to date
  assert.is(w.total, '99.00') // 3 × 30.00 + 9.00
})

test('drop before the minimum term: charged through the term, the last period pro-rated', () => {
  const w = new World(feature(), '30')
  w.bill('2025-03-01')
  w.approve()
  const terms = { minimumTermDate: d('2025-05-20'), noticePeriodLength: null, noticePeriodLengthType: null, cancellationNoticeGivenDate: null }
  const billTo = featureBillTo({ dateDrop: d('2025-03-10'), terms })
  assert.ok(isEmptyDiff(w.drop(billTo)))
  assert.equal(inserted(w.bill('2025-06-01')), [
    'Recurring Charge 2025-04-01..2025-04-30 30.00',
    'Recurring Charge 2025-05-01..2025-05-20 19.35', // May 1–20 = 20 of 31 days: 30 × 20/31 = 19.354… → 19.35
  ])
})

test('dateBillTo in the past: approved charges after it refunded, unapproved deleted; reinstate charges again', () => {
  const w = new World(feature(), '30')
  w.bill('2025-03-01')
  w.approve() // Jan, Feb, Mar approved
  w.bill('2025-04-01') // Apr unapproved, id 4
  const diff = w.drop(d('2025-02-14'))
  assert.equal(inserted(diff), [
    'Recurring Charge Refund 2025-02-01..2025-02-28 -30.00', // Feb refunded in full…
    'Recurring Charge 2025-02-01..2025-02-14 15.00', // …and charged again through Feb 14: 30 × 14/28
    'Recurring Charge Refund 2025-03-01..2025-03-31 -30.00',
  ])
  assert.equal(diff.delete, ['4'])
  assert.is(w.total, '45.00') // 30 + (30 − 30 + 15) + (30 − 30)
  assert.is(w.due, '2025-02-15')
  assert.ok(isEmptyDiff(w.bill(null, false)))
  w.approve()
  assert.ok(isEmptyDiff(w.bill('2025-05-01')))
  // reinstated: the bill-to date goes, every period up to the cutoff is due again
  w.feature = { ...w.feature, billToDate: null, isDropped: false }
  assert.equal(inserted(w.bill('2025-04-01')), [
    'Recurring Charge Refund 2025-02-01..2025-02-28 -15.00', // Feb's approved net 30 − 30 + 15 = 15 refunded…
    'Recurring Charge 2025-02-01..2025-02-28 30.00', // …and the whole month charged
    'Recurring Charge 2025-03-01..2025-03-31 30.00', // Mar's approved net is 0: only the charge
    'Recurring Charge 2025-04-01..2025-04-30 30.00',
  ])
  assert.is(w.total, '120.00') // 4 × 30.00
})

test('a drop after a delta change still refunds with Recurring Charge Refund rows', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  w.change({ serviceCharge: m('20'), dateFrom: d('2025-03-01'), chargeChangeMode: 'delta' }) // Mar: adjustment +10.00
  w.approve()
  const diff = w.drop(d('2025-03-15'))
  assert.equal(inserted(diff), [
    'Recurring Charge Refund 2025-03-01..2025-03-31 -20.00', // Mar's approved net 10 + 10 refunded…
    'Recurring Charge 2025-03-01..2025-03-15 9.68', // …and charged through Mar 15: 20 × 15/31 = 9.677… → 9.68
  ])
  assert.ok(isEmptyDiff(w.bill('2025-04-01')))
})

test('replace on approved charges: refund and charge the span again, a mid-period date splits', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve() // Jan, Feb, Mar at 10.00
  const diff = w.change({ serviceCharge: m('20'), dateFrom: d('2025-02-15') })
  assert.equal(inserted(diff), [
    'Recurring Charge Refund 2025-02-01..2025-02-28 -10.00',
    'Recurring Charge 2025-02-01..2025-02-14 5.00', // 10 × 14/28
    'Recurring Charge 2025-02-15..2025-02-28 10.00', // 20 × 14/28
    'Recurring Charge Refund 2025-03-01..2025-03-31 -10.00',
    'Recurring Charge 2025-03-01..2025-03-31 20.00',
  ])
  assert.equal(diff.insert.map((r) => r.revision), [0, 1, 0, 0, 1]) // the second Feb 1 and Mar 1 charge rows
  assert.is(new Set(w.ledger.map((r) => naturalKey('f1', r))).size, w.ledger.length)
  assert.ok(isEmptyDiff(w.bill('2025-03-01'))) // the next run keeps the result
  assert.ok(isEmptyDiff(w.bill(null, false)))
  assert.equal(inserted(w.bill('2025-04-01')), ['Recurring Charge 2025-04-01..2025-04-30 20.00'])
  assert.is(w.total, '65.00') // 10 + (5 + 10) + 20 + 20
})

test('replace on unapproved charges: updated in place, no refunds', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01') // ids 1, 2, 3
  const diff = w.change({ serviceCharge: m('20'), dateFrom: d('2025-02-15') })
  assert.equal(updated(diff), ['2: periodEnd=2025-02-14 amount=5.00', '3: rate=20.00 amount=20.00'])
  assert.equal(inserted(diff), ['Recurring Charge 2025-02-15..2025-02-28 10.00'])
  assert.equal(diff.delete, [])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
  assert.is(w.total, '45.00') // 10 + 5 + 10 + 20
})

test('replace defaults to the due date; a count change bills count × price', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  assert.ok(isEmptyDiff(w.change({ serviceCharge: m('20') }))) // from Apr 1: nothing charged there yet
  assert.equal(inserted(w.bill('2025-04-01')), ['Recurring Charge 2025-04-01..2025-04-30 20.00'])
  w.approve()
  const diff = w.change({ featureCount: 3, dateFrom: d('2025-04-01') })
  assert.equal(inserted(diff), ['Recurring Charge Refund 2025-04-01..2025-04-30 -20.00', 'Recurring Charge 2025-04-01..2025-04-30 60.00']) // 3 × 20.00
})

test('delta on approved charges: one adjustment row per period for the net difference', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  const up = w.change({ serviceCharge: m('20'), dateFrom: d('2025-02-15'), chargeChangeMode: 'delta' })
  assert.equal(inserted(up), [
    'Recurring Charge Adjustment 2025-02-01..2025-02-28 5.00', // (10 × 14/28 + 20 × 14/28) − 10 = 15 − 10
    'Recurring Charge Adjustment 2025-03-01..2025-03-31 10.00', // 20 − 10
  ])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
  w.approve()
  const down = w.change({ serviceCharge: m('4'), dateFrom: d('2025-03-01'), chargeChangeMode: 'delta' })
  assert.equal(inserted(down), ['Recurring Charge Adjustment Refund 2025-03-01..2025-03-31 -16.00']) // 4 − (10 + 10)
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
  assert.equal(inserted(w.bill('2025-04-01')), ['Recurring Charge 2025-04-01..2025-04-30 4.00'])
  assert.is(w.total, '33.00') // 10 + 15 + 4 + 4
})

test('delta on unapproved charges: updated in place; mixed periods', () => {
  const w = new World(feature(), '10')
  w.bill('2025-02-01')
  w.approve() // Jan, Feb approved
  w.bill('2025-03-01') // Mar unapproved, id 3
  const diff = w.change({ serviceCharge: m('20'), dateFrom: d('2025-02-15'), chargeChangeMode: 'delta' })
  assert.equal(inserted(diff), ['Recurring Charge Adjustment 2025-02-01..2025-02-28 5.00']) // 15 − 10
  assert.equal(updated(diff), ['3: rate=20.00 amount=20.00'])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
})

test('add: new charges from dateFrom, existing ones left alone, kept by later runs and changes', () => {
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  w.approve()
  const diff = w.change({ serviceCharge: m('12'), dateFrom: d('2025-02-15'), chargeChangeMode: 'add' })
  assert.equal(inserted(diff), [
    'Recurring Charge 2025-02-15..2025-02-28 6.00', // 12 × 14/28
    'Recurring Charge 2025-03-01..2025-03-31 12.00',
  ])
  assert.equal(diff.insert.map((r) => r.series), [1, 1])
  assert.equal([diff.update, diff.delete], [[], []])
  assert.ok(isEmptyDiff(w.bill('2025-03-01')))
  assert.equal(inserted(w.bill('2025-04-01')), ['Recurring Charge 2025-04-01..2025-04-30 12.00']) // series 1 only
  // a replace after it changes the new series; the frozen 10.00 rows of Feb and Mar stay
  const replace = w.change({ serviceCharge: m('15'), dateFrom: d('2025-04-01') })
  assert.equal(updated(replace), ['6: rate=15.00 amount=15.00'])
  assert.is(w.total, '63.00') // 10 + 10 + 10 + 6 + 12 + 15
})

test('changeRecurringCharge refuses bad input with invalid_charge_change, a dropped feature with state_not_allowed', () => {
  const fresh = new World(feature(), '10')
  throwsCode(() => fresh.change({ chargeChangeMode: 'swap' }), 'invalid_charge_change')
  throwsCode(() => fresh.change({ chargeChangeMode: 'add', dateFrom: d('2025-01-01') }), 'invalid_charge_change') // nothing charged yet
  const w = new World(feature(), '10')
  w.bill('2025-03-01')
  throwsCode(() => w.change({ chargeChangeMode: 'add', serviceCharge: m('12') }), 'invalid_charge_change') // no dateFrom
  throwsCode(() => w.change({ chargeChangeMode: 'add', dateFrom: d('2025-04-02') }), 'invalid_charge_change') // after dueDate Apr 1
  throwsCode(() => w.change({ chargeChangeMode: 'delta' }, { transactionTypes: ['Recurring Charge', 'Recurring Charge Adjustment'] }), 'invalid_charge_change')
  throwsCode(() => w.change({ featureCount: -1 }), 'invalid_parameter')
  w.change({ chargeChangeMode: 'add', dateFrom: d('2025-04-01'), serviceCharge: m('12') }) // on the due date: allowed
  w.drop(d('2025-03-31'))
  throwsCode(() => w.change({ serviceCharge: m('20') }), 'state_not_allowed')
})

// ---- properties -------------------------------------------------------------------------

type Op =
  | { t: 'run'; at: number; chargeable: boolean }
  | { t: 'approve' }
  | { t: 'change'; mode: 'replace' | 'delta' | 'add'; offset: number; rate: bigint; count: number }
  | { t: 'drop'; at: number }
  | { t: 'reinstate' }

const rate = fc.bigInt({ min: 0n, max: 200_000n }) // up to 20.0000, 4 places
const count = fc.integer({ min: 0, max: 5 })
const featureArb = fc.record({
  interval: fc.constantFrom(...serviceChargeIntervals),
  start: fc.integer({ min: 0, max: 365 }).map((n) => addDays(d('2024-01-01'), n)),
  rate,
  count,
  committed: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  committedTermDays: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
  endDays: fc.option(fc.integer({ min: 0, max: 900 }), { nil: null }),
})
const opArb = (modes: readonly ('replace' | 'delta' | 'add')[]): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ t: fc.constant('run' as const), at: fc.integer({ min: -30, max: 900 }), chargeable: fc.boolean() }) },
    { weight: 2, arbitrary: fc.constant({ t: 'approve' as const }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('change' as const), mode: fc.constantFrom(...modes), offset: fc.integer({ min: -400, max: 200 }), rate, count }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('drop' as const), at: fc.integer({ min: -10, max: 900 }) }) },
    { weight: 1, arbitrary: fc.constant({ t: 'reinstate' as const }) },
  )

function build(f: { interval: ServiceChargeInterval; start: DateOnly; rate: bigint; count: number; committed: number | null; committedTermDays: number | null; endDays: number | null }): World {
  return new World(
    feature({
      startDate: f.start,
      interval: f.interval,
      featureCountCommitted: f.committed,
      committedTermDate: f.committedTermDays === null ? null : addDays(f.start, f.committedTermDays),
      endDate: f.endDays === null ? null : addDays(f.start, f.endDays),
      connectionCharge: m('5'),
    }),
    f.rate as Money,
    f.count,
  )
}

/** Every row in whole pence, natural keys unique, and no unapproved charge row overlapping another of its series. */
function ledgerIsSound(w: World): boolean {
  if (!w.ledger.every((r) => r.amount % 100n === 0n)) return false
  if (new Set(w.ledger.map((r) => naturalKey('f', r))).size !== w.ledger.length) return false
  const pending = w.ledger.filter((r) => !r.approved && r.kind === 'recurring' && r.quantity !== null)
  return pending.every((a, i) => pending.every((b, j) => i === j || a.series !== b.series || a.periodEnd < b.periodStart || b.periodEnd < a.periodStart))
}

/** Applies one operation; returns false if the step's own re-run was not empty or the ledger unsound. */
function step(w: World, op: Op, log: { d: DateOnly; rate: bigint; count: number }[]): boolean {
  const start = w.feature.startDate!
  let again: BillingCutoff
  switch (op.t) {
    case 'run':
      again = { cutoff: addDays(start, op.at), chargeable: op.chargeable }
      w.bill(again.cutoff, again.chargeable)
      break
    case 'approve':
      w.approve()
      return ledgerIsSound(w)
    case 'change': {
      const due = w.due ?? start
      const dateFrom = op.mode === 'add' ? addDays(due, -(Math.abs(op.offset) % 90)) : addDays(due, op.offset)
      try {
        w.change({ chargeChangeMode: op.mode, dateFrom, serviceCharge: op.rate as Money, featureCount: op.count })
      } catch (e) {
        if (isBillingError(e)) return true // dropped, or add with nothing charged: refused, nothing written
        throw e
      }
      log.push({ d: maxDate(dateFrom, start), rate: op.rate, count: op.count })
      again = { cutoff: null, chargeable: false }
      break
    }
    case 'drop':
      w.drop(maxDate(addDays(start, op.at), addDays(start, -1)))
      again = { cutoff: null, chargeable: false }
      break
    case 'reinstate':
      w.feature = { ...w.feature, billToDate: null, isDropped: false }
      w.bill(null, false)
      again = { cutoff: null, chargeable: false }
      break
  }
  return isEmptyDiff(w.plan(again)) && ledgerIsSound(w)
}

test('property: reconcile and every change are idempotent; amounts whole pence; keys unique', () => {
  fc.assert(
    fc.property(featureArb, fc.array(opArb(['replace', 'delta', 'add']), { maxLength: 12 }), (f, ops) => {
      const w = build(f)
      const log: { d: DateOnly; rate: bigint; count: number }[] = []
      return ops.every((op) => step(w, op, log))
    }),
    { numRuns: 300 },
  )
})

const halfUp = (n: bigint, den: bigint): bigint => (2n * n + den) / (2n * den) // n ≥ 0

/**
 * An independent model of what a feature should have been charged, period by period: walk every
 * day, find its period by counting from the anchor (or the calendar), its price and count from the
 * changes in the order they were made (the latest one made that covers the day wins), and charge
 * each run of equal price and count as price × count × days / period days, rounded to pence.
 */
function model(
  f: BillingFeature,
  initial: { rate: bigint; count: number },
  log: readonly { d: DateOnly; rate: bigint; count: number }[],
  horizon: DateOnly,
): Map<string, bigint> {
  const start = f.startDate!
  const n = { Monthly: 1, Quarterly: 3, Annually: 12, 'Calendar Monthly': 1, 'Calendar Quarterly': 3, 'Calendar Annually': 12 }[f.interval]
  const calendar = f.interval.startsWith('Calendar')
  const periodOf = (day: DateOnly): { start: DateOnly; end: DateOnly; days: number } => {
    if (calendar) {
      const y = Number(day.slice(0, 4))
      const first = Math.floor((Number(day.slice(5, 7)) - 1) / n) * n + 1
      let days = 0
      for (let k = 0; k < n; k++) days += daysInMonth(y, first + k)
      const calStart = d(`${day.slice(0, 4)}-${String(first).padStart(2, '0')}-01`)
      return { start: maxDate(calStart, start), end: addDays(calStart, days - 1), days }
    }
    let k = 0
    while (addMonths(start, (k + 1) * n) <= day) k++
    const ps = addMonths(start, k * n)
    const next = addMonths(start, (k + 1) * n)
    return { start: ps, end: addDays(next, -1), days: daysBetween(ps, next) }
  }
  const valueOn = (day: DateOnly): { rate: bigint; count: number } => {
    for (let i = log.length - 1; i >= 0; i--) if (log[i].d <= day) return log[i]
    return initial
  }
  const billed = (c: number, periodStart: DateOnly): number =>
    f.featureCountCommitted !== null && f.featureCountCommitted > c && (f.committedTermDate === null || periodStart <= f.committedTermDate) ? f.featureCountCommitted : c
  const ends = [f.endDate, f.billToDate].filter((x): x is DateOnly => x !== null)
  const lastPeriod = periodOf(maxDate(horizon, start))
  const last = ends.length ? minDate(lastPeriod.end, ends.reduce(minDate)) : lastPeriod.end
  const out = new Map<string, bigint>()
  let run: { period: string; days: number; rate: bigint; qty: number; covered: number } | null = null
  const close = (): void => {
    if (run) out.set(run.period, (out.get(run.period) ?? 0n) + halfUp(run.rate * BigInt(run.qty) * BigInt(run.covered), BigInt(run.days) * 100n) * 100n)
  }
  for (let day = start; day <= last; day = addDays(day, 1)) {
    const p = periodOf(day)
    if (p.start > horizon) break
    const v = valueOn(day)
    const qty = billed(v.count, p.start)
    if (run && run.period === p.start && run.rate === v.rate && run.qty === qty) run.covered++
    else {
      close()
      run = { period: p.start, days: p.days, rate: v.rate, qty, covered: 1 }
    }
  }
  close()
  return out
}

test('property: after any history, the ledger holds per period exactly what the independent model says', () => {
  fc.assert(
    fc.property(featureArb, fc.array(opArb(['replace', 'delta']), { maxLength: 10 }), (f, ops) => {
      const w = build(f)
      const log: { d: DateOnly; rate: bigint; count: number }[] = []
      for (const op of ops) step(w, op, log)
      const cutoff = addDays(f.start, 950) // after every earlier cutoff
      w.bill(cutoff, true)
      const want = model(w.feature, { rate: f.rate, count: f.count }, log, cutoff)
      const got = new Map<string, bigint>()
      const schedule = { interval: f.interval, anchor: f.start }
      for (const r of w.ledger) {
        if (r.kind !== 'recurring') continue
        const slot = periodContaining(schedule, r.periodStart)!.start
        got.set(slot, (got.get(slot) ?? 0n) + r.amount)
      }
      const nonZero = (mp: Map<string, bigint>): string[] => [...mp].filter(([, v]) => v !== 0n).map(([k, v]) => `${k}=${v}`).sort()
      assert.equal(nonZero(got), nonZero(want))
      assert.ok(w.ledger.filter((r) => r.kind === 'connection').length <= 1, 'the connection charge is one-off')
      return true
    }),
    { numRuns: 300 },
  )
})

test.run()
