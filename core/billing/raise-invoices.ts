import { maxDate, type DateOnly } from '../dates/date-only.js'
import type { BillingRun, Transaction, ValuesOf } from '../fields/entity.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import { add, round, ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Invoiceable, NewInvoice } from '../ports/ledger.js'
import type { Store } from '../ports/store.js'
import { invoiceMessageOf } from './invoice-message.js'
import { callMinimumOf, decideInvoice, emptyRaises } from './invoice-rules.js'
import { cycleDue, cycleSkips, invoiceDueDate, overdueDateOf } from './invoice-terms.js'
import { vatOn } from './vat.js'
import { billedThrough, finalBillOf } from './final-bill-through.js'
import type { Stamp } from '../dates/stamp.js'
import type { RunCustomer } from '../ports/run-fields.js'
import { numberInvoices } from '../numbering/number-invoices.js'
import { finaliseRaised, raisedOverdue, raisedPaymentState } from './finalise-invoices.js'
import { markFinalInvoiced } from './final-invoiced.js'
import type { NumberMinimum } from '../ports/receivables.js'

/**
 * The last transaction dates a customer's invoice takes (contract 9.5): the engine's rows (a
 * charge kind) through the cutoff, every other transaction through its transactionCutoffDate,
 * earlier or later than the cutoff (unset: the cutoff). Charges dated after the cutoff that a
 * run left unapproved (a discarded review run's, with a later cutoff) wait for the run whose
 * cutoff they fall within. A customer in final bill takes everything through the later cutoff
 * or its final-bill date: its final invoice is its last.
 */
function invoiceThrough(run: BillingRun, customer: RunCustomer, cutoff: DateOnly): { charges: DateOnly; others: DateOnly } {
  const others = run.transactionCutoffDate ?? cutoff
  if (finalBillOf(customer)) {
    const through = billedThrough(customer, maxDate(others, cutoff))
    return { charges: through, others: through }
  }
  return { charges: billedThrough(customer, cutoff), others }
}

/** Whether an invoice through `through` takes a transaction (an engine row when it has a `kind`). */
const takes = (through: { charges: DateOnly; others: DateOnly }, transactionDate: DateOnly, kind: string | null | undefined): boolean =>
  transactionDate <= (kind ? through.charges : through.others)

/**
 * One invoice per billable customer of a batch with unapproved transactions up to its cutoff
 * (none when empty; a final bill is invoiced once). The batch's transactions are read in one
 * query and its invoices written together, not a few queries per customer. `inserts` are the
 * batch's new ledger rows, not yet written: the ledger inserts them with the invoices, already
 * on them, which saved updating every row again (bench/billing-run.ts). `numberMinimums` reads
 * the batch's numbers' call-charge minimums, only once some customer has lines to invoice (a
 * re-run of a cutoff has none). Returns the customers invoiced, those with a credit invoice to
 * settle, those drafted (a review run's: a draft's minimum charges move the balance too, so
 * their credit alerts are measured as the invoiced ones'), and when the writes are made (`written`).
 */
export async function raiseInvoices(
  ctx: PlatformContext,
  store: Store,
  run: BillingRun,
  customers: readonly RunCustomer[],
  cutoff: DateOnly,
  events: ReadonlyMap<string, LifecycleEvent[]>,
  inserts: readonly ValuesOf<Transaction>[] = [],
  numberMinimums: () => Promise<readonly NumberMinimum[]> = async () => [],
): Promise<{ count: number; invoiced: string[]; drafted: string[]; settle: string[]; overdue: string[]; written: Promise<void> }> {
  const invoiceDate = run.invoiceDate ?? ctx.clock.today()
  // A review run drafts (contract 16.1): its invoices are made final when it is approved.
  const draft = run.review === true
  const billable = customers.filter((customer) => {
    if (!effectiveStateOn(events.get(`customers:${customer.id}`) ?? [], cutoff).billable) return false
    const finalBill = finalBillOf(customer)
    return !(finalBill && customer.finalInvoicedDate === finalBill)
  })
  // Only a customer on a longer cycle can wait for a later run; its last invoice decides (contract 10.1).
  const cycled = billable.filter((c) => !finalBillOf(c) && cycleSkips(c.billingCycle)).map((c) => c.id)
  const lastInvoiced = cycled.length ? await store.ledger.lastInvoiceDates(cycled) : new Map<string, DateOnly>()
  const due = billable.filter((c) => finalBillOf(c) || cycleDue(c.billingCycle, lastInvoiced.get(c.id) ?? null, invoiceDate))
  const lastOf = (c: RunCustomer) => {
    const through = invoiceThrough(run, c, cutoff)
    return maxDate(through.charges, through.others)
  }
  const latest = due.length ? due.map(lastOf).reduce(maxDate) : null
  const lines = latest ? await store.ledger.invoiceable(due.map((c) => c.id), latest) : new Map<string, Invoiceable[]>()
  const insertedOf = new Map<string, number[]>()
  inserts.forEach((row, i) => {
    if (!row.customerID) return // every row of a run names its customer
    const list = insertedOf.get(row.customerID)
    if (list) list.push(i)
    else insertedOf.set(row.customerID, [i])
  })
  const now = ctx.clock.now()
  const today = ctx.clock.today()
  const settle: string[] = []
  const invoices: NewInvoice[] = []
  // Customers share a few payment terms: each one's dates are worked out once per batch.
  const terms = new Map<string, { dueDate: DateOnly; overdueDate: DateOnly }>()
  const datesOf = (customer: RunCustomer) => {
    const key = `${customer.paymentTerms}|${customer.paymentTermsType}|${customer.paymentGraceDays}|${customer.paymentMethod}`
    let dates = terms.get(key)
    if (!dates) {
      const dueDate = invoiceDueDate(customer, invoiceDate, run.dueDate)
      terms.set(key, (dates = { dueDate, overdueDate: overdueDateOf(customer, dueDate, ctx.presets) }))
    }
    return dates
  }
  const raise = (customer: RunCustomer, transactionIDs: string[], inserted: number[], net: Money, vat: Money, suppressed: boolean) => {
    const { dueDate, overdueDate } = datesOf(customer)
    const totalAmount = add(net, vat)
    // This invoice's own credit is allocated once it is raised (credit held from earlier payments
    // too, which the step reads in its transaction: bill-partition.ts); a draft's once approved.
    if (totalAmount < 0n && !draft) settle.push(customer.id)
    invoices.push({
      transactionIDs,
      inserted,
      values: {
        customerID: customer.id,
        billingRunID: run.id,
        invoiceDate,
        dueDate,
        netAmount: net,
        VATAmount: vat,
        totalAmount,
        transactionIDs,
        ...(draft ? { amountPaid: ZERO, amountOutstanding: totalAmount, paidDate: null, status: 'Draft' as const } : raisedPaymentState(totalAmount, invoiceDate, overdueDate, today)),
        overdueDate,
        suppressed,
        invoiceMessage: invoiceMessageOf(customer),
        createdStamp: now,
        updatedStamp: now,
      },
    })
  }
  // An invoice raised though empty (Send, Charge Minimum) carries its numbers' minimums too.
  const anyLines = due.some((c) => (lines.get(c.id)?.length ?? 0) > 0 || insertedOf.has(c.id) || emptyRaises(c))
  const minimums = activeMinimums(anyLines ? await numberMinimums() : [], events, cutoff)
  /** Tops each of the customer's numbers' calls up to its minimum (contract 10.4): what the rows added. */
  const addMinimums = (customer: RunCustomer, through: DateOnly, callsByNumber: ReadonlyMap<string, Money> | null, inserted: number[]) => {
    let [net, vat] = [ZERO, ZERO]
    for (const number of minimums.get(customer.id) ?? []) {
      const gap = callMinimumOf(number.value, callsByNumber?.get(number.id) ?? ZERO)
      if (gap === ZERO) continue
      const row = chargeRow(ctx, run, customer, through, now, CALL_MINIMUM, gap, minimumRate(number, customer), number.id)
      inserted.push(rows.push(row) - 1)
      net = add(net, row.amount)
      vat = add(vat, row.VATAmount)
    }
    return { net, vat }
  }
  // Rows this function adds (minimum charges) go in after the batch's own.
  const rows: ValuesOf<Transaction>[] = [...inserts]
  const emptyOnes: RunCustomer[] = []
  for (const customer of due) {
    const dates = invoiceThrough(run, customer, cutoff)
    const through = dates.charges
    const mine = (lines.get(customer.id) ?? []).filter((l) => takes(dates, l.transactionDate as DateOnly, l.kind))
    const inserted = (insertedOf.get(customer.id) ?? []).filter((i) => takes(dates, inserts[i].transactionDate ?? through, inserts[i].kind))
    if (mine.length === 0 && inserted.length === 0) {
      // Dropped on the cutoff, not today: a drop recorded after the cutoff leaves that period's invoice.
      if (emptyRaises(customer) && !effectiveStateOn(events.get(`customers:${customer.id}`) ?? [], cutoff).dropped) emptyOnes.push(customer)
      continue
    }
    // Summed in place rather than through four arrays per invoice (a run raises one per customer).
    let net = ZERO
    let vat = ZERO
    let calls = ZERO
    let callsByNumber: Map<string, Money> | null = null
    const mins = minimums.get(customer.id)
    for (const l of mine) {
      net = add(net, l.amount)
      vat = add(vat, l.VATAmount)
      if (l.transactionType === CALL_CHARGES) {
        calls = add(calls, l.amount)
        if (mins && l.numberID) (callsByNumber ??= new Map()).set(l.numberID, add(callsByNumber.get(l.numberID) ?? ZERO, l.amount))
      }
    }
    for (const i of inserted) {
      net = add(net, inserts[i].amount ?? ZERO)
      vat = add(vat, inserts[i].VATAmount ?? ZERO)
    }
    // A number's call-charge minimum tops up its calls on the invoice first (contract 10.4).
    const topped = addMinimums(customer, through, callsByNumber, inserted)
    net = add(net, topped.net)
    vat = add(vat, topped.vat)
    calls = add(calls, topped.net)
    const finalBill = finalBillOf(customer)
    const decision = decideInvoice(customer, { lines: mine.length + inserted.length, net, vat, calls }, finalBill !== null)
    if (!decision.raise) {
      // Carried forward: its rows stay unapproved for the next invoice; added minimums are dropped.
      rows.length = Math.min(rows.length, ...inserted.filter((i) => i >= inserts.length))
      continue
    }
    if (decision.minimum > 0n) {
      const row = chargeRow(ctx, run, customer, through, now, MINIMUM_CHARGE, decision.minimum, customer.VATRate, null)
      inserted.push(rows.push(row) - 1)
      net = add(net, row.amount)
      vat = add(vat, row.VATAmount)
    }
    raise(customer, mine.map((l) => l.id), inserted, net, vat, decision.suppressed)
  }
  // Empty invoices that are sent or charged: not twice for one invoice date (a re-run of a run).
  const last = emptyOnes.length ? await store.ledger.lastInvoiceDates(emptyOnes.map((c) => c.id)) : new Map<string, string>()
  for (const customer of emptyOnes) {
    if ((last.get(customer.id) ?? '') >= invoiceDate) continue
    const through = invoiceThrough(run, customer, cutoff).charges
    // Empty by its own lines: its empty-invoice action decides, then its numbers' minimums top up
    // the Call Charges it carries (none), on the invoice that action raises (contract 10.4).
    const decision = decideInvoice(customer, { lines: 0, net: ZERO, vat: ZERO, calls: ZERO }, finalBillOf(customer) !== null)
    if (!decision.raise) continue
    const inserted: number[] = []
    let { net, vat } = addMinimums(customer, through, null, inserted)
    if (decision.minimum > 0n) {
      const row = chargeRow(ctx, run, customer, through, now, MINIMUM_CHARGE, decision.minimum, customer.VATRate, null)
      inserted.push(rows.push(row) - 1)
      net = add(net, row.amount)
      vat = add(vat, row.VATAmount)
    }
    raise(customer, [], inserted, net, vat, decision.suppressed)
  }
  // Numbered in the batch's transaction, from one counter (contract 14.1: no gap, no repeat); a
  // draft when its run is approved (approve-drafts.ts).
  const raised = await store.ledger.raiseInvoices(draft ? invoices : await numberInvoices(ctx, store, invoices), run.id, rows, draft)
  // The writes after the invoices wait behind them at the database, not here: the caller plans
  // its next batch meanwhile, and `written` settles with them all (see `RaisedInvoices`).
  const dueByID = new Map(due.map((c) => [c.id, c]))
  // A final bill is marked as written, a draft's too: approval bills the draft as drafted (final-invoiced.ts).
  const after = markFinalInvoiced(store, raised.invoices, dueByID).then(() => (draft ? undefined : finaliseRaised(ctx, store, raised.invoices, dueByID, now)))
  const written = Promise.all([raised.written, after]).then(() => undefined)
  // Failed, it is thrown where the caller awaits it; a rejection nobody awaits yet would end the process.
  written.catch(() => undefined)
  // The caller allocates their credit once the batch's objects are gone, for a step's batches at
  // once (bill-partition.ts); a draft is allocated nothing until approved.
  const customerIDs = invoices.map((i) => i.values.customerID!)
  const overdue = draft ? [] : raisedOverdue(raised.invoices)
  return { count: invoices.length, invoiced: draft ? [] : customerIDs, drafted: draft ? customerIDs : [], settle, overdue, written }
}

const CALL_CHARGES = 'Call Charges'
const MINIMUM_CHARGE = 'Minimum Charge'
const CALL_MINIMUM = 'Call Charges Minimum'

/**
 * A minimum charge row of a run (contract 10.4): net `amount` rounded half-up to pence as every
 * transaction is when created (contract 9.1; the values it tops up to may carry 4 places), VAT at
 * `VATRate`, dated on the invoice's last day. The invoice sums the row as written.
 */
function chargeRow(
  ctx: PlatformContext,
  run: BillingRun,
  customer: RunCustomer,
  through: DateOnly,
  now: Stamp,
  transactionType: string,
  given: Money,
  VATRate: string | null,
  numberID: string | null,
): ValuesOf<Transaction> & { amount: Money; VATAmount: Money } {
  const amount = round(given, 2)
  return {
    customerID: customer.id,
    numberID,
    transactionType,
    description: transactionType,
    transactionDate: through,
    amount,
    VATRate,
    VATAmount: vatOn(amount, VATRate, ctx.presets),
    approved: false,
    billingRunID: run.id,
    createdStamp: now,
    updatedStamp: now,
  }
}

/**
 * A number's `Call Charges Minimum` rate: its number's calls' rate (contract 17.7), as the
 * `Call Charges` it tops up: the number's `VATRateCalls`, else the customer's, else its `VATRate`.
 */
function minimumRate(number: NumberMinimum, customer: RunCustomer): string | null {
  return number.VATRateCalls ?? ((customer.VATRateCalls ?? customer.VATRate ?? null) || null)
}

/**
 * The call-charge minimums of the numbers active (not dropped) and billable on the cutoff, by
 * customer (contract 10.4). A suspended number keeps its minimum: its calls are still charged (5.4).
 */
function activeMinimums(numbers: readonly NumberMinimum[], events: ReadonlyMap<string, LifecycleEvent[]>, cutoff: DateOnly) {
  const out = new Map<string, NumberMinimum[]>()
  for (const n of numbers) {
    const chain = [...(events.get(`numbers:${n.id}`) ?? []), ...(events.get(`customers:${n.customerID}`) ?? [])]
    const state = effectiveStateOn(chain, cutoff)
    if (state.dropped || !state.billable) continue
    const list = out.get(n.customerID)
    if (list) list.push(n)
    else out.set(n.customerID, [n])
  }
  return out
}
