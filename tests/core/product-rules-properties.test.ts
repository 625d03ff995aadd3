import { suite } from 'uvu'
import fc from 'fast-check'
import * as assert from 'uvu/assert'
import type { BillingFeature } from '../../core/billing/billing-feature.js'
import { discountsOf } from '../../core/billing/discounts.js'
import { chargePatch } from '../../core/billing/charge-patch.js'
import { expectedRecurring } from '../../core/billing/expected-charges.js'
import { historyOf, serializeHistory } from '../../core/billing/stored-feature.js'
import { autoCommittedCount } from '../../core/features/feature-terms.js'
import type { Item } from '../../core/fields/item.js'
import { effectiveHistory } from '../../core/billing/charge-history.js'
import { instalmentAt } from '../../core/billing/instalments.js'
import { layoutAt, layoutRuns } from '../../core/billing/layout-runs.js'
import { frozenRows } from '../../core/billing/series-runs.js'
import { isEmptyDiff, transactionTypeNames } from '../../core/billing/ledger-row.js'
import type { LedgerRow } from '../../core/ports/ledger.js'
import { periodContaining, serviceChargeIntervals, type ServiceChargeInterval } from '../../core/billing/periods.js'
import { addDays, maxDate, type DateOnly } from '../../core/dates/date-only.js'
import { isBillingError } from '../../core/errors.js'
import type { Money } from '../../core/money/money.js'
import type { DiscountScheme } from '../../core/presets/product-maps.js'
import { d, feature, World } from '../support/billing-world.js'

/** Properties of contract 11's rules over random features and histories. */
const test = suite('core/product rules: properties')

const schemeArb: fc.Arbitrary<DiscountScheme> = fc.oneof(
  fc.record({ percent: fc.bigInt({ min: 0n, max: 1_000_000n }).map((p) => p as Money), amount: fc.constant(null), months: fc.option(fc.integer({ min: 1, max: 14 }), { nil: null }) }),
  fc.record({ percent: fc.constant(null), amount: fc.bigInt({ min: 0n, max: 300_000n }).map((a) => a as Money), months: fc.option(fc.integer({ min: 1, max: 14 }), { nil: null }) }),
)
const dayArb = (max: number) => fc.integer({ min: 0, max }).map((n) => addDays(d('2024-01-01'), n))

/** A feature with every rule in play: discounts, instalments (no charge of its own), Peak Count. */
const featureArb = fc
  .record({
    interval: fc.constantFrom(...serviceChargeIntervals),
    start: dayArb(400),
    initial: fc.option(schemeArb, { nil: null }),
    initialEnd: fc.option(fc.integer({ min: -20, max: 400 }), { nil: null }),
    ongoing: fc.option(schemeArb, { nil: null }),
    ongoingEnd: fc.option(fc.integer({ min: 0, max: 800 }), { nil: null }),
    instalments: fc.option(fc.record({ count: fc.integer({ min: 1, max: 24 }), total: fc.bigInt({ min: 0n, max: 50_000_000n }).map((t) => (t * 100n) as Money) }), { nil: null }),
    rate: fc.bigInt({ min: -100_000n, max: 300_000n }),
    count: fc.integer({ min: 0, max: 5 }),
    peak: fc.boolean(),
    endDays: fc.option(fc.integer({ min: 0, max: 900 }), { nil: null }),
  })
  .map((f): { feature: BillingFeature; rate: Money | null; count: number } => {
    const schemes: Record<string, DiscountScheme> = {}
    if (f.initial) schemes.initial = f.initial
    if (f.ongoing) schemes.ongoing = f.ongoing
    const discounts = discountsOf(
      {
        startDate: f.start,
        initialFeatureDiscountScheme: f.initial ? 'initial' : null,
        initialFeatureDiscountSchemeEndDate: f.initialEnd === null ? null : addDays(f.start, f.initialEnd),
        ongoingFeatureDiscountScheme: f.ongoing ? 'ongoing' : null,
        ongoingFeatureDiscountSchemeEndDate: f.ongoingEnd === null ? null : addDays(f.start, f.ongoingEnd),
      },
      schemes,
    )
    return {
      feature: feature({
        startDate: f.start,
        interval: f.interval,
        endDate: f.endDays === null ? null : addDays(f.start, f.endDays),
        committedPeak: f.peak,
        discounts,
        instalments: f.instalments,
        totalFeatureValue: f.instalments?.total ?? null,
      }),
      rate: f.instalments ? null : (f.rate as Money),
      count: f.count,
    }
  })

type Step = { t: 'run'; at: number; chargeable: boolean } | { t: 'approve' } | { t: 'count'; offset: number; count: number }
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('run' as const), at: fc.integer({ min: -30, max: 700 }), chargeable: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ t: 'approve' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('count' as const), offset: fc.integer({ min: -60, max: 60 }), count: fc.integer({ min: 0, max: 6 }) }) },
)

/**
 * Net per billing period, zero nets left out. Charges and discounts are summed together: a
 * period whose approved rows already add up to what is expected is left as it is (contract 9.3),
 * whichever rows make up that total.
 */
function nets(w: World): string[] {
  const schedule = { interval: w.feature.interval, anchor: w.feature.startDate! }
  const out = new Map<string, bigint>()
  for (const r of w.ledger) {
    if (r.kind !== 'recurring') continue
    const slot = periodContaining(schedule, r.periodStart)!.start
    out.set(slot, (out.get(slot) ?? 0n) + r.amount)
  }
  return [...out].filter(([, v]) => v !== 0n).map(([k, v]) => `${k} ${v}`).sort()
}

const cutoffOf = (w: World, at: number): string => addDays(w.feature.startDate!, at)

test('property: any sequence of runs and approvals leaves the ledger one catch-up run would write', () => {
  fc.assert(
    fc.property(featureArb, fc.array(stepArb, { maxLength: 10 }), (f, steps) => {
      const stepped = new World(f.feature, f.rate, f.count)
      const changes: { dateFrom: DateOnly; featureCount: number }[] = []
      for (const s of steps) {
        if (s.t === 'run') stepped.bill(cutoffOf(stepped, s.at), s.chargeable)
        else if (s.t === 'approve') stepped.approve()
        else {
          const dateFrom = addDays(stepped.due ?? f.feature.startDate!, s.offset)
          try {
            stepped.change({ featureCount: s.count, dateFrom })
            changes.push({ dateFrom, featureCount: s.count })
          } catch (e) {
            if (!isBillingError(e)) throw e
          }
        }
        if (!isEmptyDiff(stepped.plan({ cutoff: null, chargeable: false }))) return false
      }
      const final = cutoffOf(stepped, 720)
      stepped.bill(final, true)
      const once = new World(f.feature, f.rate, f.count)
      for (const c of changes) once.change(c)
      once.bill(final, true)
      return JSON.stringify(nets(stepped)) === JSON.stringify(nets(once))
    }),
    { numRuns: 300 },
  )
})

test('property: a discount is never positive and never more than its charge, period by period', () => {
  fc.assert(
    fc.property(featureArb, fc.integer({ min: 0, max: 800 }), (f, at) => {
      const w = new World(f.feature, f.rate, f.count)
      w.bill(cutoffOf(w, at), true)
      const byPart = new Map<string, { charge: bigint; discount: bigint }>()
      for (const r of w.ledger) {
        if (r.kind !== 'recurring') continue
        const part = byPart.get(r.periodStart) ?? { charge: 0n, discount: 0n }
        if (r.transactionType === transactionTypeNames.discount) part.discount += r.amount
        else part.charge += r.amount
        byPart.set(r.periodStart, part)
      }
      return [...byPart.values()].every((p) => p.discount <= 0n && (p.discount === 0n || -p.discount <= p.charge))
    }),
    { numRuns: 300 },
  )
})

test('property: instalments add up to totalFeatureValue exactly, however the total divides', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...serviceChargeIntervals),
      dayArb(400),
      fc.integer({ min: 1, max: 36 }),
      fc.bigInt({ min: 1n, max: 10_000_000n }),
      (interval, start, count, pence) => {
        const total = (pence * 100n) as Money
        const plan = { count, total }
        let sum = 0n
        for (let k = 0; k < count; k++) sum += instalmentAt(plan, k)!
        const w = new World(feature({ startDate: start, interval, instalments: plan, totalFeatureValue: total }), null)
        w.bill(addDays(start, 36 * 370), true)
        const charged = w.ledger.reduce((s: bigint, r: LedgerRow) => s + r.amount, 0n)
        const rows = w.ledger.filter((r) => r.kind === 'recurring').length
        return sum === total && charged === total && rows === count && instalmentAt(plan, count) === null
      },
    ),
    { numRuns: 300 },
  )
})

/**
 * A run, an approval, a change of count (instalments ignore it), a PATCH of the interval (from
 * `offset` days after the dueDate, or from the dueDate), a drop and its reinstate `gap` days after,
 * or an `add` change charging again from the start of the period `back` days before the dueDate.
 */
type PlanStep =
  | { t: 'run'; at: number }
  | { t: 'approve' }
  | { t: 'count'; offset: number; count: number }
  | { t: 'interval'; offset: number | null; interval: ServiceChargeInterval }
  | { t: 'cycle'; after: number; gap: number }
  | { t: 'add'; back: number }
const planStepArb: fc.Arbitrary<PlanStep> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('run' as const), at: fc.integer({ min: -30, max: 900 }) }) },
  { weight: 2, arbitrary: fc.constant({ t: 'approve' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('count' as const), offset: fc.integer({ min: -60, max: 60 }), count: fc.integer({ min: 0, max: 6 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('interval' as const), offset: fc.option(fc.integer({ min: -100, max: 100 }), { nil: null }), interval: fc.constantFrom(...serviceChargeIntervals) }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('cycle' as const), after: fc.integer({ min: -40, max: 200 }), gap: fc.integer({ min: 1, max: 120 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('add' as const), back: fc.integer({ min: 0, max: 400 }) }) },
)

test('property: drops, reinstates, counts, changes of interval and adds neither forgive nor repeat instalments, and no period charges more than one', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...serviceChargeIntervals),
      dayArb(400),
      fc.integer({ min: 1, max: 24 }),
      fc.bigInt({ min: 1n, max: 10_000_000n }),
      fc.array(planStepArb, { maxLength: 12 }),
      (interval, start, count, pence, steps) => {
        const plan = { count, total: (pence * 100n) as Money }
        const w = new World(feature({ startDate: start, interval, instalments: plan, totalFeatureValue: plan.total }), null)
        // Drops and reinstates follow each other in time; runs and changes of count or interval fall on any day.
        let day = start
        for (const s of steps) {
          if (s.t === 'run') w.bill(addDays(start, s.at), true)
          else if (s.t === 'approve') w.approve()
          else if (s.t === 'count') {
            try {
              w.change({ featureCount: s.count, dateFrom: addDays(w.due ?? start, s.offset) })
            } catch (e) {
              if (!isBillingError(e)) throw e // dropped: refused, nothing written
            }
          } else if (s.t === 'interval') {
            // As a PATCH makes it (contract 17.5): the versions before keep the old interval.
            const featureCount = effectiveHistory(w.history, start).at(-1)!.featureCount
            const dateFrom = s.offset === null ? null : addDays(w.due ?? start, s.offset)
            const patch = chargePatch(w, { serviceCharge: null, featureCount, featureCountCommitted: w.feature.featureCountCommitted, interval: s.interval }, dateFrom)
            w.history = [...patch.history]
            w.feature = { ...w.feature, interval: s.interval }
            w.change(patch.params)
          } else if (s.t === 'add') {
            // From a period's first day: the older series then charges none of the days the new one
            // charges again, and its rows of those periods are what the credit note raised outside
            // the platform (contract 9.4) takes back.
            const layouts = layoutRuns(w.feature.interval, start, effectiveHistory(w.history, start), w.feature.gaps)
            const back = maxDate(start, addDays(w.due ?? start, -s.back))
            const dateFrom = periodContaining(layoutAt(layouts, back).schedule, back)!.start
            try {
              w.change({ chargeChangeMode: 'add', dateFrom })
            } catch (e) {
              if (!isBillingError(e)) throw e // dropped, or nothing charged yet: refused, nothing written
            }
          } else {
            day = addDays(day, s.after)
            w.drop(day)
            day = addDays(day, s.gap)
            w.reinstate(day)
          }
        }
        // Past the last instalment: a change to Annually over a year in may still owe 24 of them.
        w.bill(addDays(maxDate(day, start), 30 * 370), true)
        // Rows of an older series in a period a newer one charges again were credited outside the
        // platform (an `add`): reconcile leaves them, and the plan is what the other rows charge.
        const versions = effectiveHistory(w.history, start)
        const layouts = layoutRuns(w.feature.interval, start, versions, w.feature.gaps)
        const slotOf = (r: LedgerRow) => periodContaining(layoutAt(layouts, r.periodStart).schedule, r.periodStart)!.start
        const frozen = frozenRows(versions, layouts)
        const live = w.ledger.filter((r) => r.kind !== 'recurring' || !frozen(r, slotOf(r)))
        const charged = live.reduce((sum: bigint, r: LedgerRow) => sum + r.amount, 0n)
        const largest = instalmentAt(plan, 0)! > instalmentAt(plan, count - 1)! ? instalmentAt(plan, 0)! : instalmentAt(plan, count - 1)!
        // Rows of a period the last change of interval laid out again are netted in the new
        // period holding them, as reconcile settles them.
        const byPeriod = new Map<string, bigint>()
        for (const r of live) byPeriod.set(slotOf(r), (byPeriod.get(slotOf(r)) ?? 0n) + r.amount)
        return charged === plan.total && [...byPeriod.values()].every((net) => net >= 0n && net <= largest)
      },
    ),
    { numRuns: 300 },
  )
})

type PeakStep = { t: 'run'; at: number } | { t: 'approve' } | { t: 'count'; offset: number | null; count: number; patch: boolean }
const peakStepArb: fc.Arbitrary<PeakStep> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant('run' as const), at: fc.integer({ min: -30, max: 500 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'approve' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('count' as const),
      // Mostly from a past date: a correction of periods already charged.
      offset: fc.option(fc.integer({ min: -150, max: 40 }), { nil: null, freq: 6 }),
      count: fc.integer({ min: 0, max: 9 }),
      patch: fc.boolean(),
    }),
  },
)

test('property: under Peak Count each period bills the count in force, at least the highest count the feature had by its start, never more', () => {
  fc.assert(
    fc.property(fc.constantFrom(...serviceChargeIntervals), dayArb(300), fc.integer({ min: 0, max: 9 }), fc.array(peakStepArb, { maxLength: 12 }), (interval, start, initial, steps) => {
      // The feature as stored, read back and changed as a PATCH and changeRecurringCharge do
      // (update-feature.ts, change-charge.ts): the latest version takes the stored committed count.
      const stored = { serviceCharge: 100_000n as Money, featureCount: initial, featureCountCommitted: initial, startDate: start, chargeHistory: null as string | null }
      const w = new World(feature({ startDate: start, interval, committedPeak: true }), stored.serviceCharge, initial)
      const read = () => {
        w.feature = { ...w.feature, featureCountCommitted: stored.featureCountCommitted }
        w.history = [...historyOf(stored)]
      }
      const had: { from: DateOnly; count: number }[] = [{ from: start, count: initial }]
      let day = start
      for (const s of steps) {
        read()
        if (s.t === 'run') {
          day = maxDate(day, addDays(start, s.at))
          w.bill(day, true)
        } else if (s.t === 'approve') w.approve()
        else {
          const from = s.offset === null ? null : maxDate(start, addDays(w.due ?? start, s.offset))
          const peak = autoCommittedCount({ featureCount: s.count }, { id: 'f', featureCountCommittedAuto: 'Peak Count', ...stored } as unknown as Item)
          let params
          if (s.patch) {
            const patch = chargePatch(w, { serviceCharge: stored.serviceCharge, featureCount: s.count, featureCountCommitted: peak ?? stored.featureCountCommitted, interval }, from)
            w.history = [...patch.history]
            params = patch.params
            stored.featureCountCommitted = peak ?? stored.featureCountCommitted
          } else params = { featureCount: s.count, dateFrom: from, ...(peak === null ? {} : { featureCountCommitted: peak }) }
          const dateFrom = maxDate(from ?? w.due ?? start, start)
          w.change(params)
          had.push({ from: dateFrom, count: s.count })
          stored.chargeHistory = serializeHistory(w.history)
          stored.featureCount = s.count
          const latest = effectiveHistory(w.history, start).at(-1)!
          if (params.featureCountCommitted !== undefined) stored.featureCountCommitted = latest.committed ?? stored.featureCountCommitted
        }
      }
      read()
      // Past every change's date as well as the last run: a change from 40 days after a dueDate a
      // year ahead falls after the last run's day + 400, and the stored committed count takes it at once.
      const final = addDays(had.reduce((x, h) => maxDate(x, h.from), day), 400)
      w.bill(final, true)
      // Replace changes: the count on a day is the last change's from on or before it.
      const countOn = (x: DateOnly) => had.reduce((n, h) => (h.from <= x ? h.count : n), initial)
      const peakBy = (x: DateOnly) => had.reduce((n, h) => (h.from <= x && h.count > n ? h.count : n), 0)
      const charges = expectedRecurring(w.feature, w.history, final).filter((c) => !c.discount)
      for (const c of charges) assert.is(c.quantity, Math.max(countOn(c.periodStart), peakBy(c.slotStart)), `${c.periodStart} of the period from ${c.slotStart}`)
      assert.is(stored.featureCountCommitted, peakBy(final))
      return isEmptyDiff(w.plan({ cutoff: d(final), chargeable: true }))
    }),
    // The case seed 1055461406 found: a change dated after the last run's day + 400.
    { numRuns: 300, examples: [['Calendar Annually', d('2024-01-01'), 0, [{ t: 'run', at: 0 }, { t: 'count', offset: 35, count: 1, patch: false }]]] },
  )
})

test.run()
