import type { DateOnly } from '../dates/date-only.js'
import type { BillingRun } from '../fields/entity.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import type { LedgerWrites } from '../ports/ledger.js'
import type { MarkedFeature } from '../ports/billing-run-source.js'
import { planLedgerDiff, type BillingCutoff } from './feature-billing.js'
import { reconciledMark } from './reconciled-mark.js'
import { ledgerWrites, mergeWrites } from './ledger-writes.js'
import { billingInputs, type BillingInput } from './billing-inputs.js'
import type { RunCustomer, RunFeature } from '../ports/run-fields.js'
import { raiseInvoices } from './raise-invoices.js'
import { billCalls } from './bill-calls.js'
import { billedThrough } from './final-bill-through.js'
import { hasCreditLimits } from '../credit/credit-alerts.js'

/**
 * A batch of customers read and planned (`planBatch`), its writes not yet made (`writeBatch`).
 * Planning reads nothing another batch writes (a batch's customers, features and ledger rows
 * are its own), so the next batch is read and planned beside the transaction while this one is
 * written (`Store.pipelinedTransaction`).
 */
export interface PlannedBatch {
  readonly customers: readonly RunCustomer[]
  readonly events: ReadonlyMap<string, LifecycleEvent[]>
  readonly merged: LedgerWrites & { readonly reconciled: ReadonlyMap<string, string> }
  /** Customers whose ledger rows the plan changes. */
  readonly written: ReadonlySet<string>
  /** Features planned (their reconciled marks did not match). */
  readonly planned: number
}

/** A page of customers in ID order and their features, read together (`readPage`). */
export interface RunPage {
  readonly customers: readonly RunCustomer[]
  readonly marked: readonly MarkedFeature[]
}

/**
 * The next `limit` customers after `afterID` (through `lastID`) and their features, on `reads`.
 * The two reads are sent at once: a step reads the next page this way before it writes the
 * batch in hand, and where `reads` is another thread's connection (a SQLite file) that thread
 * answers both while this one writes (bench/RESULTS.md, session 26).
 */
export function readPage(reads: Store, afterID: string, limit: number, lastID: string | null): Promise<RunPage> {
  const customers = reads.runSource.customersAfter(afterID, limit, lastID)
  const marked = reads.runSource.featuresOf(afterID, limit, lastID)
  return Promise.all([customers, marked]).then(([customers, marked]) => ({ customers, marked }))
}

/**
 * Plans a page's charges through the cutoff, reading the rest on `reads`. A feature whose
 * reconciled mark matches its inputs is skipped: its ledger already holds what a plan would
 * write (see `reconciledMark`), so neither its ledger rows are read nor is it planned.
 */
export async function planBatch(ctx: PlatformContext, reads: Store, run: BillingRun, cutoff: DateOnly, page: RunPage): Promise<PlannedBatch> {
  const { customers, marked } = page
  const ids = customers.map((c) => c.id)
  const events = groupEvents(await reads.lifecycle.eventsOfCustomersBetween(ids[0], ids.at(-1)!))
  const byID = new Map(customers.map((c) => [c.id, c]))
  const inputs = await billingInputs(reads, ctx.presets, marked.map((m) => m.feature), byID)
  const due: { item: RunFeature; customer: RunCustomer; input: BillingInput; at: BillingCutoff; mark: string }[] = []
  for (const { feature: item, mark } of marked) {
    const customer = item.customerID ? byID.get(item.customerID) : undefined
    if (!customer) continue // not of this page (cannot happen while customer IDs only grow)
    const on = billedThrough(customer, cutoff)
    const state = effectiveStateOn(chainOf(events, item, customer.id), on)
    const at: BillingCutoff = { cutoff: on, chargeable: !state.suspended && state.billable, billable: state.billable }
    const input = inputs.get(item.id)!
    const inputsMark = reconciledMark(input.feature, input.history, at)
    if (inputsMark !== mark) due.push({ item, customer, input, at, mark: inputsMark })
  }
  const ledger = await reads.ledger.engineRows(due.map((d) => d.item.id))
  const now = ctx.clock.now()
  const reconciled = new Map<string, string>()
  const written = new Set<string>()
  const plans = due.map(({ item, customer, input, at, mark }) => {
    const diff = planLedgerDiff(input.feature, input.history, ledger.get(item.id) ?? [], at)
    reconciled.set(item.id, mark)
    const writes = ledgerWrites(item, customer, diff, ctx.presets, now, run.id)
    if (writes.features.length > 0) written.add(customer.id)
    return writes
  })
  return { customers, events, merged: { ...mergeWrites(plans), reconciled }, written, planned: due.length }
}

/** What a batch's writes came to; `written` settles once the database has made them all (see `RaisedInvoices`). */
export interface BatchOutcome {
  readonly invoices: number
  /** Customers invoiced, in ID order: their credit held is allocated once the step's batches are written. */
  readonly invoiced: readonly string[]
  /** Of those, the ones whose invoice is a credit, allocated then too. */
  readonly settle: readonly string[]
  /** The invoices raised already overdue (`raisedOverdue`): announced so after that allocation if still unpaid. */
  readonly raisedOverdue: readonly string[]
  /** Customers this batch wrote to, in ID order: only their credit alerts can change. */
  readonly touched: readonly string[]
  /** Of those, the ones with a credit limit of their own (numbers' limits are asked once a step). */
  readonly limited: readonly string[]
  /**
   * Of those, the ones whose calls it billed, in ID order. A run only moves a number's unbilled
   * calls into its `Call Charges` (rounded to pence once): only their numbers' limits can be
   * exceeded anew by it.
   */
  readonly callsBilled: readonly string[]
  readonly writes: number
  readonly written: Promise<void>
}

/**
 * Writes a planned batch: its ledger rows, its calls' charges and its invoices. It returns once
 * the last writes are sent, not answered (`written`): the caller plans the next batch meanwhile.
 */
export async function writeBatch(ctx: PlatformContext, store: Store, run: BillingRun, cutoff: DateOnly, batch: PlannedBatch, numbers: NumberSettings): Promise<BatchOutcome> {
  const { customers, events, merged } = batch
  const ids = customers.map((c) => c.id)
  const written = new Set(batch.written)
  // New rows are inserted with the invoices, already on them (see raiseInvoices).
  await store.ledger.write({ ...merged, inserts: [] })
  const callsBilled = await billCalls(ctx, store, customers, cutoff, events, run)
  for (const id of callsBilled) written.add(id)
  // Few numbers have a call-charge minimum, and most platforms none: read only when some number
  // has one, and once some customer has lines to invoice (a re-run of a cutoff has none).
  const minimums = () => (numbers.minimums ? store.receivables.numberMinimums(ids[0], ids.at(-1)!) : Promise.resolve([]))
  const raised = await raiseInvoices(ctx, store, run, customers, cutoff, events, merged.inserts, minimums)
  for (const id of [...raised.invoiced, ...raised.drafted]) written.add(id)
  const touched = ids.filter((id) => written.has(id))
  const limited = new Set(customers.filter(hasCreditLimits).map((c) => c.id))
  return {
    invoices: raised.count,
    invoiced: raised.invoiced,
    settle: raised.settle,
    raisedOverdue: raised.overdue,
    touched,
    limited: touched.filter((id) => limited.has(id)),
    callsBilled: ids.filter((id) => callsBilled.has(id)),
    writes: merged.inserts.length + merged.updates.length + merged.deletes.length,
    written: raised.written,
  }
}

/** Whether any number has a call-charge minimum or a credit limit, as a run starts. */
export interface NumberSettings {
  readonly minimums: boolean
  readonly creditLimits: boolean
}

const NONE: readonly LifecycleEvent[] = []

/** The lifecycle events of a feature and everything above it (most features have none of their own: no copy then). */
function chainOf(events: ReadonlyMap<string, LifecycleEvent[]>, item: RunFeature, customerID: string): readonly LifecycleEvent[] {
  const own = events.get(`features:${item.id}`) ?? NONE
  const number = item.numberID ? (events.get(`numbers:${item.numberID}`) ?? NONE) : NONE
  const service = item.serviceID ? (events.get(`services:${item.serviceID}`) ?? NONE) : NONE
  const customer = events.get(`customers:${customerID}`) ?? NONE
  if (own.length + number.length + service.length === 0) return customer
  return [...own, ...number, ...service, ...customer]
}

function groupEvents(events: readonly (LifecycleEvent & { customerID: string })[]): Map<string, LifecycleEvent[]> {
  const out = new Map<string, LifecycleEvent[]>()
  for (const e of events) {
    const key = `${e.level}:${e.itemId}`
    const list = out.get(key)
    if (list) list.push(e)
    else out.set(key, [e])
  }
  return out
}
