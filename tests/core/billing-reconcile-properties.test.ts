import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import type { BillingFeature } from '../../core/billing/billing-feature.js'
import type { BillingCutoff } from '../../core/billing/feature-billing.js'
import { isEmptyDiff, naturalKey, roleOf } from '../../core/billing/ledger-row.js'
import { refundedOf } from '../../core/credit-notes/refunded-lines.js'
import { periodContaining, serviceChargeIntervals, type ServiceChargeInterval } from '../../core/billing/periods.js'
import { addDays, addMonths, daysBetween, daysInMonth, maxDate, minDate, type DateOnly } from '../../core/dates/date-only.js'
import { isBillingError } from '../../core/errors.js'
import type { Money } from '../../core/money/money.js'
import { chargePatch } from '../../core/billing/charge-patch.js'
import type { LedgerRow } from '../../core/ports/ledger.js'
import { d, m, World, feature } from '../support/billing-world.js'
import { count, featureArb, rate } from '../support/billing-arbitraries.js'

/** Properties over random histories: idempotent reconciles, sound ledgers, agreement with an independent model. */
const test = suite('core/billing reconcile: properties')

type Op =
  | { t: 'run'; at: number; chargeable: boolean }
  | { t: 'approve' }
  | { t: 'change'; mode: 'replace' | 'delta' | 'add'; offset: number; rate: bigint; count: number }
  | { t: 'drop'; at: number }
  | { t: 'reinstate'; at: number }

const opArb = (modes: readonly ('replace' | 'delta' | 'add')[]): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ t: fc.constant('run' as const), at: fc.integer({ min: -30, max: 900 }), chargeable: fc.boolean() }) },
    { weight: 2, arbitrary: fc.constant({ t: 'approve' as const }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('change' as const), mode: fc.constantFrom(...modes), offset: fc.integer({ min: -400, max: 200 }), rate, count }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('drop' as const), at: fc.integer({ min: -10, max: 900 }) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('reinstate' as const), at: fc.integer({ min: -10, max: 900 }) }) },
  )

function build(f: { interval: ServiceChargeInterval; start: DateOnly; rate: bigint; count: number; committed: number | null; committedTermDays: number | null; endDays: number | null; carrier: bigint | null }): World {
  return new World(
    feature({
      startDate: f.start,
      interval: f.interval,
      featureCountCommitted: f.committed,
      committedTermDate: f.committedTermDays === null ? null : addDays(f.start, f.committedTermDays),
      endDate: f.endDays === null ? null : addDays(f.start, f.endDays),
      connectionCharge: m('5'),
      connectionChargeCarrier: f.carrier === null ? null : m('2'),
      serviceChargeCarrier: f.carrier as Money | null,
    }),
    f.rate as Money,
    f.count,
  )
}

/** Every row (and its carrier cost) in whole pence, natural keys unique, and no unapproved charge row overlapping another of its series. */
function ledgerIsSound(w: World): boolean {
  if (!w.ledger.every((r) => r.amount % 100n === 0n && r.carrierCost % 100n === 0n)) return false
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
      w.reinstate(addDays(start, op.at))
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

/** Where the periods holding `day` are counted from: the start, or the day a reinstate after a gap started them again. */
const anchorOn = (f: BillingFeature, day: DateOnly): DateOnly =>
  f.gaps.map((g) => addDays(g.to, 1)).reduce((a, resume) => (resume > a && resume <= day ? resume : a), f.startDate!)

/**
 * An independent model of what a feature should have been charged, period by period: walk every
 * day, find its period by counting from the anchor (or the calendar), its price and count from the
 * changes in the order they were made (the latest one made that covers the day wins), and charge
 * each run of equal price and count as price × count × days / period days, rounded to pence. A
 * day a drop's gap holds is not charged; after a gap the anchor is the day it ended (contract 5.5).
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
    const anchor = anchorOn(f, day)
    if (calendar) {
      const y = Number(day.slice(0, 4))
      const first = Math.floor((Number(day.slice(5, 7)) - 1) / n) * n + 1
      let days = 0
      for (let k = 0; k < n; k++) days += daysInMonth(y, first + k)
      const calStart = d(`${day.slice(0, 4)}-${String(first).padStart(2, '0')}-01`)
      return { start: maxDate(calStart, anchor), end: addDays(calStart, days - 1), days }
    }
    let k = 0
    while (addMonths(anchor, (k + 1) * n) <= day) k++
    const ps = addMonths(anchor, k * n)
    const next = addMonths(anchor, (k + 1) * n)
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
    if (f.gaps.some((g) => g.from <= day && day <= g.to)) continue
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
      for (const r of w.ledger) {
        if (r.kind !== 'recurring') continue
        const slot = periodContaining({ interval: f.interval, anchor: anchorOn(w.feature, r.periodStart) }, r.periodStart)!.start
        got.set(slot, (got.get(slot) ?? 0n) + r.amount)
      }
      const nonZero = (mp: Map<string, bigint>): string[] => [...mp].filter(([, v]) => v !== 0n).map(([k, v]) => `${k}=${v}`).sort()
      assert.equal(nonZero(got), nonZero(want))
      const connection = w.ledger.filter((r) => r.kind === 'connection')
      assert.ok(connection.filter((r) => r.amount > 0n).length <= 1, 'the connection charge is one-off')
      const ends = [w.feature.endDate, w.feature.billToDate].filter((x): x is DateOnly => x !== null)
      if (ends.length && ends.reduce(minDate) < w.feature.startDate!) {
        assert.is(connection.reduce((t, r) => t + r.amount, 0n), 0n, 'cut off before its start: none of it stands (5.5)')
      }
      return true
    }),
    { numRuns: 300 },
  )
})

/** A credit note of `share` % of what is left of an approved recurring charge row (the `pick`th), as issuing one caps it. */
function creditNote(w: World, pick: number, share: number): void {
  const charges = w.ledger.filter((r) => r.approved && r.kind === 'recurring' && roleOf(r.transactionType) === 'charge' && r.amount > 0n)
  if (charges.length === 0) return
  const row = charges[pick % charges.length]
  const refunded = refundedOf(w.ledger).get(row.id) ?? 0n
  const left = row.amount + credited(row) - refunded
  const net = ((left * BigInt(share)) / 100n / 100n) * 100n // whole pence
  if (net <= 0n) return
  const credits = [...(row.credits ?? []), { id: w.nextId(), net: -net as Money, vat: 0n as Money }]
  w.ledger = w.ledger.map((r) => (r === row ? { ...r, credits } : r))
}

const credited = (r: LedgerRow): bigint => (r.credits ?? []).reduce((n, c) => n + c.net, 0n)

/** What stands of each period of recurring charges: its rows' net less what credit notes gave back. */
function standingByPeriod(w: World, f: { interval: ServiceChargeInterval }): Map<string, bigint> {
  const out = new Map<string, bigint>()
  for (const r of w.ledger) {
    if (r.kind !== 'recurring') continue
    const slot = periodContaining({ interval: f.interval, anchor: anchorOn(w.feature, r.periodStart) }, r.periodStart)!.start
    out.set(slot, (out.get(slot) ?? 0n) + r.amount + credited(r))
  }
  return out
}

test('property: credit notes and the engine never give a period back twice: what stands of each lies between nothing and what the model charges; a credit note then stands through later runs', () => {
  const creditArb = fc.record({ t: fc.constant('credit' as const), pick: fc.nat(), share: fc.integer({ min: 1, max: 100 }) })
  fc.assert(
    fc.property(
      featureArb,
      fc.array(fc.oneof({ weight: 3, arbitrary: opArb(['replace', 'delta']) }, { weight: 1, arbitrary: creditArb }), { maxLength: 16 }),
      fc.array(creditArb, { minLength: 1, maxLength: 3 }),
      (f, ops, after) => {
        const w = build(f)
        const log: { d: DateOnly; rate: bigint; count: number }[] = []
        for (const op of ops) {
          if (op.t === 'credit') creditNote(w, op.pick, op.share)
          else if (!step(w, op, log)) return false
        }
        const cutoff = addDays(f.start, 950)
        w.bill(cutoff, true)
        if (!isEmptyDiff(w.plan({ cutoff, chargeable: true }))) return false
        const want = model(w.feature, { rate: f.rate, count: f.count }, log, cutoff)
        for (const [slot, stands] of standingByPeriod(w, f)) {
          assert.ok(stands >= 0n, `period ${slot} gives back ${-stands} more than it charged`)
          assert.ok(stands <= (want.get(slot) ?? 0n), `period ${slot} stands at ${stands}, above the ${want.get(slot) ?? 0n} it should charge`)
        }
        // Credit notes after the last run, then a run that changes nothing: each credit stands as given.
        w.approve()
        for (const c of after) creditNote(w, c.pick, c.share)
        return isEmptyDiff(w.plan({ cutoff, chargeable: true }))
      },
    ),
    { numRuns: 1000 },
  )
})

/**
 * Cost rows follow charge rows (contract 16.2): with the carrier's price equal to the charge's
 * in every version, whatever the counts, drops, approvals and change modes, every row the
 * engine writes (charges, refunds, adjustments, back-fills) carries a cost equal to its amount,
 * period for period.
 */
test('property: the carrier cost is pro-rated, back-filled, refunded and adjusted exactly as the charge', () => {
  fc.assert(
    fc.property(featureArb, fc.array(opArb(['replace', 'delta', 'add']), { maxLength: 12 }), (f, ops) => {
      const w = build({ ...f, carrier: f.rate })
      w.feature = { ...w.feature, connectionChargeCarrier: w.feature.connectionCharge }
      const log: { d: DateOnly; rate: bigint; count: number }[] = []
      for (const op of ops) step(w, op.t === 'change' ? { ...op, rate: f.rate } : op, log)
      w.bill(addDays(f.start, 950), true)
      for (const r of w.ledger) assert.is(r.carrierCost, r.amount, `${r.transactionType} ${r.periodStart}..${r.periodEnd}`)
      return true
    }),
    { numRuns: 300 },
  )
})

test('property: with any prices, each charge row costs the carrier price × its count over the same days', () => {
  fc.assert(
    fc.property(featureArb, fc.array(opArb(['replace', 'delta']), { maxLength: 10 }), rate, (f, ops, carrier) => {
      const w = build({ ...f, carrier })
      const log: { d: DateOnly; rate: bigint; count: number }[] = []
      for (const op of ops) step(w, op, log)
      const cutoff = addDays(f.start, 950)
      w.bill(cutoff, true)
      for (const r of w.ledger) {
        if (r.kind !== 'recurring' || r.quantity === null) continue
        const period = periodContaining({ interval: f.interval, anchor: anchorOn(w.feature, r.transactionDate) }, r.transactionDate)!
        // A row approved before a reinstate laid the periods out again keeps its old dates (approved
        // rows never change) and stands for the new period it starts in: its days are not that period's.
        if (r.periodEnd > period.end) continue
        const covered = daysBetween(r.periodStart, addDays(r.periodEnd, 1))
        assert.is(r.carrierCost, halfUp(carrier * BigInt(r.quantity) * BigInt(covered), BigInt(period.days) * 100n) * 100n)
      }
      return true
    }),
    { numRuns: 300 },
  )
})

type PatchOp =
  | { t: 'run'; at: number; chargeable: boolean }
  | { t: 'approve' }
  | { t: 'patch'; rate: bigint; count: number; committed: number | null; interval: ServiceChargeInterval; offset: number | null }

const patchOpArb: fc.Arbitrary<PatchOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('run' as const), at: fc.integer({ min: -30, max: 700 }), chargeable: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ t: 'approve' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('patch' as const),
      rate,
      count,
      committed: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
      interval: fc.constantFrom(...serviceChargeIntervals),
      // null: from the dueDate (a PATCH without updatedDate); else updatedDate this many days from it.
      offset: fc.option(fc.integer({ min: -120, max: 120 }), { nil: null }),
    }),
  },
)

/** A feature's recurring rows by billing period (series and first day), each period's rows as text. */
function periods(ledger: readonly LedgerRow[]): Map<string, { end: DateOnly; rows: string[] }> {
  const out = new Map<string, { end: DateOnly; rows: string[] }>()
  for (const r of ledger) {
    if (r.kind !== 'recurring') continue
    const key = `${r.series}|${r.transactionDate}`
    const p = out.get(key) ?? { end: r.periodEnd, rows: [] }
    p.end = maxDate(p.end, r.periodEnd)
    p.rows.push(`${r.transactionType} ${r.periodStart}..${r.periodEnd} ${r.amount} ${r.approved}`)
    out.set(key, p)
  }
  for (const p of out.values()) p.rows.sort()
  return out
}

test('property: no sequence of PATCHes and runs changes a charge of a period before a change takes effect (contract 17.5)', () => {
  fc.assert(
    fc.property(featureArb, fc.array(patchOpArb, { maxLength: 12 }), (f, ops) => {
      const w = build(f)
      const start = w.feature.startDate!
      for (const op of ops) {
        const before = periods(w.ledger)
        // Periods that end before this date must keep their rows: the patch's date, or for a run any period charged.
        let keptBefore: DateOnly
        if (op.t === 'run') {
          w.bill(addDays(start, op.at), op.chargeable)
          keptBefore = addDays(start, 10_000)
        } else if (op.t === 'approve') {
          w.approve()
          continue
        } else {
          const due = w.due ?? start
          const dateFrom = op.offset === null ? null : maxDate(addDays(due, op.offset), start)
          const patch = chargePatch(
            { feature: w.feature, history: w.history },
            { serviceCharge: op.rate as Money, featureCount: op.count, featureCountCommitted: op.committed, interval: op.interval },
            dateFrom,
          )
          w.history = [...patch.history]
          w.feature = { ...w.feature, interval: op.interval, featureCountCommitted: op.committed }
          w.change(patch.params)
          keptBefore = dateFrom ?? due
          // The change is written whole: planning it again, or a reconcile, writes nothing.
          assert.ok(isEmptyDiff(w.plan({ cutoff: null, chargeable: false })), 'a patch reconciles')
        }
        const after = periods(w.ledger)
        for (const [key, p] of before) {
          if (p.end >= keptBefore) continue
          assert.equal(after.get(key)?.rows, p.rows, `period ${key} ending ${p.end}, before ${keptBefore}, changed by ${JSON.stringify(op, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`)
        }
        assert.ok(ledgerIsSound(w), 'ledger sound')
      }
      return true
    }),
    { numRuns: 300 },
  )
})

test.run()
