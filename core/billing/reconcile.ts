import { maxDate, minDate, type DateOnly } from '../dates/date-only.js'
import { add, neg, sub, sum, type Money } from '../money/money.js'
import { featureEnd, type BillingFeature } from './billing-feature.js'
import { effectiveHistory, type ChargeHistory } from './charge-history.js'
import { frozenRows } from './series-runs.js'
import type { ExpectedCharge } from './expected-charges.js'
import { roleOf, transactionTypeNames, type EntryRole, type LedgerDiff, type LedgerRowChanges, type NewLedgerRow } from './ledger-row.js'
import type { ChargeKind, LedgerRow } from '../ports/ledger.js'
import { periodContaining } from './periods.js'
import { layoutAt, layoutRuns } from './layout-runs.js'
import { byRate, correctedRate } from './corrected-vat.js'
import { absorbedCredits, creditedByRate, standing } from './slot-credits.js'

/** What reconcile needs besides the two lists: how the feature's periods and series are laid out. */
export interface ReconcileContext {
  readonly feature: BillingFeature
  readonly history: ChargeHistory
}

/** One billing period of one series (or the connection charge): the unit reconcile settles. */
interface Slot {
  readonly kind: ChargeKind
  readonly series: number
  readonly slotStart: DateOnly
  readonly expected: ExpectedCharge[]
  readonly approved: LedgerRow[]
  readonly pending: LedgerRow[]
}

type Desired = Omit<NewLedgerRow, 'revision'> & { readonly role: EntryRole }

/**
 * The difference that makes the ledger hold the expected charges, slot by slot (a slot: one
 * billing period of one series; the connection charge is its own slot). Unapproved rows are
 * updated in place, deleted or added; approved rows never change. Where a slot has approved rows:
 * - they add up to the expected total: nothing to do (whatever rows make up that total);
 * - nothing is expected any more (past the bill-to date): one `Recurring Charge Refund` of their net;
 * - in `replace` style: a refund of their net and the expected charges again;
 * - in `delta` style: one `Recurring Charge Adjustment` (or `... Adjustment Refund`) of the difference.
 * An approved connection charge is final, unless the feature is cut off before its start. Rows of an older series on days a newer series
 * charges again are frozen (see `frozenRows`). The unapproved rows of a slot end up exactly as wanted,
 * so reconciling the result again returns an empty diff.
 */
export function reconcile(expected: readonly ExpectedCharge[], ledger: readonly LedgerRow[], ctx: ReconcileContext): LedgerDiff {
  const first = ledger.length === 0 ? firstCharges(expected, ctx.feature) : null
  return first ? { insert: first, update: [], delete: [] } : reconcileSlots(expected, ledger, ctx)
}

/** `reconcile` slot by slot, whatever the ledger holds (exported for the property that a first billing agrees with it). */
export function reconcileSlots(expected: readonly ExpectedCharge[], ledger: readonly LedgerRow[], ctx: ReconcileContext): LedgerDiff {
  const slots = new Map<string, Slot>()
  const slotOf = (kind: ChargeKind, series: number, slotStart: DateOnly): Slot => {
    // A connection charge is one slot whatever its date: charged on the start date, it stays the
    // feature's one connection charge when the start date moves, not a second one on the new date.
    const key = kind === 'connection' ? `${kind}|${series}` : `${kind}|${series}|${slotStart}`
    let slot = slots.get(key)
    if (!slot) slots.set(key, (slot = { kind, series, slotStart, expected: [], approved: [], pending: [] }))
    return slot
  }
  for (const e of expected) slotOf(e.kind, e.series, e.slotStart).expected.push(e)

  // Only rows need the schedule and the versions (a feature billed for the first time has none).
  const start = ledger.length ? ctx.feature.startDate : null
  const versions = start ? effectiveHistory(ctx.history, start) : []
  const layouts = start ? layoutRuns(ctx.feature.interval, start, versions, ctx.feature.gaps) : null
  const frozen = layouts ? frozenRows(versions, layouts) : null
  for (const row of ledger) {
    let slotStart = row.periodStart
    if (row.kind === 'recurring') {
      slotStart = (layouts && periodContaining(layoutAt(layouts, row.periodStart).schedule, row.periodStart)?.start) ?? row.periodStart
      if (frozen?.(row, slotStart)) continue // frozen by a later `add`
    }
    const slot = slotOf(row.kind, row.series, slotStart)
    ;(row.approved ? slot.approved : slot.pending).push(row)
  }

  const nextRevision = revisions(ledger)
  const insert: NewLedgerRow[] = []
  const update: { id: string; set: LedgerRowChanges }[] = []
  const remove: string[] = []
  for (const slot of slots.values()) {
    const pending = [...slot.pending]
    for (const want of desiredRows(slot, ctx.feature)) {
      const i = pending.findIndex(
        (r) =>
          roleOf(r.transactionType) === want.role &&
          r.periodStart === want.periodStart &&
          r.transactionType === want.transactionType &&
          // A slot may hold a refund per VAT rate (see `refunds`).
          (want.VATRate === undefined || r.VATRate === want.VATRate),
      )
      if (i < 0) {
        insert.push(newRow(want, nextRevision(want)))
        continue
      }
      const set = changes(pending[i], want, ctx.feature.VATRate)
      if (set && want.role !== 'charge' && slot.approved.some((r) => r.credits?.length)) {
        // A correction that changes nets what credit notes gave back by now: written again, its
        // new ID after theirs says it took them in (`absorbedCredits`).
        remove.push(pending[i].id)
        insert.push(newRow(want, pending[i].revision))
      } else if (set) update.push({ id: pending[i].id, set })
      pending.splice(i, 1)
    }
    remove.push(...pending.map((r) => r.id))
  }
  return { insert, update, delete: remove }
}

/**
 * What reconcile returns for a feature without ledger rows (its first billing, a million times
 * in a first monthly run): every expected charge inserted at revision 0, without the slots and
 * revision keys of the general path (reconcile was the largest allocator of a first run:
 * bench/billing-run.ts, figures in bench/RESULTS.md). Null unless each charge follows the one
 * before as the general path would write them (as expected charges come); that path then
 * orders and numbers them.
 */
function firstCharges(expected: readonly ExpectedCharge[], feature: BillingFeature): NewLedgerRow[] | null {
  for (let i = 1; i < expected.length; i++) if (!follows(expected[i - 1], expected[i])) return null
  return expected.map((e) => newRow(charge(e, e.discount ? transactionTypeNames.discount : chargeTypeOf(e.kind, feature)), 0))
}

/**
 * Whether `b` comes after `a` in the general path's order, with a natural key of its own: the
 * connection charge before recurring ones, series in order, and within a series a later piece
 * of the same slot or of a later one, or the discount of the piece before. A slot once left then never comes back, and no two
 * charges of a series share a period start (their key's other parts follow from kind and series).
 */
function follows(a: ExpectedCharge, b: ExpectedCharge): boolean {
  if (a.kind !== b.kind) return a.kind === 'connection'
  if (a.series !== b.series) return a.series < b.series
  // A discount follows its charge, on the same part (its transaction type tells their keys apart).
  if (b.discount) return !a.discount && a.periodStart === b.periodStart
  return a.slotStart <= b.slotStart && a.periodStart < b.periodStart
}

/** The row that charges an expected charge. */
const charge = (e: ExpectedCharge, transactionType: string): Desired => ({
  role: 'charge',
  kind: e.kind,
  series: e.series,
  transactionType,
  transactionDate: e.transactionDate,
  periodStart: e.periodStart,
  periodEnd: e.periodEnd,
  quantity: e.quantity,
  rate: e.rate,
  amount: e.amount,
  carrierCost: e.cost,
})

/** The transaction type of a feature's charges of a kind: its own when that is a charge type, else the default. */
function chargeTypeOf(kind: ChargeKind, feature: BillingFeature): string {
  const chargeType = kind === 'connection' ? feature.connectionTransactionType : feature.serviceTransactionType
  const fallback = kind === 'connection' ? transactionTypeNames.connection : transactionTypeNames.recurring
  return chargeType && roleOf(chargeType) === 'charge' ? chargeType : fallback
}

function desiredRows(slot: Slot, feature: BillingFeature): Desired[] {
  const transactionType = chargeTypeOf(slot.kind, feature)
  const charges = slot.expected.map((e) => charge(e, e.discount ? transactionTypeNames.discount : transactionType))
  if (slot.approved.length === 0) return charges
  // An approved connection charge is final (a later price or count never re-charges it), unless the
  // feature is cut off before it starts: then it charged for a day after its bill-to date (5.5).
  // Refunded so and then reinstated, it is owed again, as the recurring charges are.
  if (slot.kind === 'connection') {
    if (endsBeforeStart(feature)) return refunds(slot)
    return sum(slot.approved.map((r) => r.amount)) === 0n ? charges : []
  }
  const approvedNet = sum(slot.approved.map((r) => r.amount))
  const expectedNet = sum(slot.expected.map((e) => e.amount))
  const last = slot.expected[slot.expected.length - 1]
  // A credit note stands as given (a run never charges it again) until the engine corrects the
  // period after it: a correction gives back only what credit notes left (`refunds`, `standing`),
  // so from then on what they took is part of what the period came to.
  if (last && add(approvedNet, absorbedCredits(slot.approved)) === expectedNet) return []
  // The cost rides with the charge (contract 16.2): corrected when and as the charge is, never on its own.
  if (!last) return refunds(slot)
  if (last.style === 'delta') {
    const difference = sub(expectedNet, standing(slot.approved))
    const costDifference = sub(sum(slot.expected.map((e) => e.cost)), sum(slot.approved.map((r) => r.carrierCost)))
    const adjustment = correction(slot, difference > 0n ? 'adjustment' : 'adjustment_refund', difference, costDifference, [...slot.approved, ...slot.expected])
    // It changes the price of what was charged, so it is taxed as that was, not at a rate set since.
    const rate = correctedRate(slot.approved)
    return [rate === undefined ? adjustment : { ...adjustment, VATRate: rate }]
  }
  return [...refunds(slot), ...charges]
}

function endsBeforeStart(feature: BillingFeature): boolean {
  const end = featureEnd(feature)
  return end !== null && feature.startDate !== null && end < feature.startDate
}

/**
 * The refund of a slot's approved rows: one `Recurring Charge Refund` per VAT rate they were
 * charged at, taking back exactly their net, VAT and cost there, so a period refunded in full
 * nets to zero, VAT too, whatever rate the feature has since (its charges again take the rate
 * now) and whatever pence the rounding of adjustments' VAT left. None when all net to nothing.
 */
function refunds(slot: Slot): Desired[] {
  const out: Desired[] = []
  const credited = creditedByRate(slot.approved)
  for (const [rate, t] of byRate(slot.approved)) {
    // What credit notes gave back is not given back again: only the rest of the rows is refunded.
    const c = credited.get(rate)
    const [net, vat] = c ? [add(t.net, c.net), add(t.vat, c.vat)] : [t.net, t.vat]
    if (net === 0n && vat === 0n && t.cost === 0n) continue
    const refund = correction(slot, 'refund', neg(net), neg(t.cost), slot.approved)
    // Rows made without VAT (the model in tests) leave the rate to the writer, as a charge does.
    out.push(rate === undefined ? refund : { ...refund, VATRate: rate, VATAmount: neg(vat) })
  }
  return out
}

/** The row to insert for a desired one (written out: a rest-and-spread copy per row cost more than the rest of reconcile). */
const newRow = (d: Desired, revision: number): NewLedgerRow => {
  const row: NewLedgerRow = {
    kind: d.kind,
    series: d.series,
    revision,
    transactionType: d.transactionType,
    transactionDate: d.transactionDate,
    periodStart: d.periodStart,
    periodEnd: d.periodEnd,
    quantity: d.quantity,
    rate: d.rate,
    amount: d.amount,
    carrierCost: d.carrierCost,
  }
  // Only a correction names its VAT (see `NewLedgerRow`); a charge's is the feature's rate.
  if (d.VATRate === undefined) return row
  return d.VATAmount === undefined ? { ...row, VATRate: d.VATRate } : { ...row, VATRate: d.VATRate, VATAmount: d.VATAmount }
}

const CORRECTION_TYPES = {
  refund: transactionTypeNames.refund,
  adjustment: transactionTypeNames.adjustment,
  adjustment_refund: transactionTypeNames.adjustmentRefund,
} as const

/** A refund or adjustment row of a slot, dated on the slot's start and spanning the rows it corrects. */
function correction(
  slot: Slot,
  role: 'refund' | 'adjustment' | 'adjustment_refund',
  amount: Money,
  carrierCost: Money,
  spans: readonly { periodStart: DateOnly; periodEnd: DateOnly }[],
): Desired {
  return {
    role,
    kind: slot.kind,
    series: slot.series,
    transactionType: CORRECTION_TYPES[role],
    transactionDate: slot.slotStart,
    periodStart: spans.map((s) => s.periodStart).reduce(minDate),
    periodEnd: spans.map((s) => s.periodEnd).reduce(maxDate),
    quantity: null,
    rate: null,
    amount,
    carrierCost,
  }
}

/**
 * The fields of `row` that differ in `want`, or null when none does. A row that takes the
 * feature's rate (a charge: `want` names none) and was written at another than `rateNow` is
 * moved to it, its amount given with it so the writer taxes it again: a charge not yet invoiced
 * takes the rate in force, name and VAT (approved rows never change).
 */
function changes(row: LedgerRow, want: Omit<NewLedgerRow, 'revision'>, rateNow: string | null): LedgerRowChanges | null {
  const set: { -readonly [K in keyof LedgerRowChanges]: LedgerRowChanges[K] } = {}
  if (row.transactionDate !== want.transactionDate) set.transactionDate = want.transactionDate
  if (row.periodEnd !== want.periodEnd) set.periodEnd = want.periodEnd
  if (row.quantity !== want.quantity) set.quantity = want.quantity
  if (row.rate !== want.rate) set.rate = want.rate
  if (row.amount !== want.amount) set.amount = want.amount
  if (row.carrierCost !== want.carrierCost) set.carrierCost = want.carrierCost
  // A correction keeps its rate (it was matched on it): its VAT is the one given, else taxed at that rate.
  if (want.VATAmount !== undefined && row.VATAmount !== want.VATAmount) set.VATAmount = want.VATAmount
  if (want.VATRate !== undefined && set.amount !== undefined) set.VATRate = want.VATRate
  if (want.VATRate === undefined && row.VATRate !== undefined && row.VATRate !== rateNow) {
    set.VATRate = rateNow
    set.amount = want.amount
  }
  return Object.keys(set).length > 0 ? set : null
}

/** Revision for a new row: one above the highest among rows of the same natural key prefix. */
function revisions(ledger: readonly LedgerRow[]): (row: Omit<NewLedgerRow, 'revision'>) => number {
  const prefix = (r: Omit<NewLedgerRow, 'revision'>): string => `${r.kind}|${r.series}|${r.periodStart}|${r.transactionType}`
  const highest = new Map<string, number>()
  for (const r of ledger) {
    const key = prefix(r)
    highest.set(key, Math.max(highest.get(key) ?? -1, r.revision))
  }
  return (row) => {
    const key = prefix(row)
    const next = (highest.get(key) ?? -1) + 1
    highest.set(key, next)
    return next
  }
}
