import { addDays, addMonths, type DateOnly } from '../dates/date-only.js'
import { toStamp, type Stamp } from '../dates/stamp.js'
import { notFound } from '../errors.js'
import type { Customer, Entities } from '../fields/entity.js'
import { add, ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import { allowanceMs } from '../rating/allowances.js'

type Invoice = Entities['invoices']
type Call = Entities['calls']
type Transaction = Entities['transactions']

/** At most this many rows on a page of the portal; the API lists the rest. */
export const PAGE_ROWS = 500

/** The signed-in customer, or 404 when it has gone (purged) or lost its portal. */
export async function portalCustomer(ctx: PlatformContext, customerID: string): Promise<Customer> {
  const customer = await ctx.store.repository('customers').get(customerID)
  if (!customer?.portalCustomerProfile) throw notFound('customer', customerID)
  return customer
}

/** The customer's invoices, newest first. */
export async function customerInvoices(ctx: PlatformContext, customerID: string): Promise<Invoice[]> {
  const rows = await ctx.store.repository('invoices').list({ where: [{ op: 'eq', column: 'customerID', value: customerID }], limit: 100_000 })
  return rows.reverse()
}

/** One of the customer's own invoices; any other ID is `not_found`, as if it did not exist. */
export async function ownInvoice(ctx: PlatformContext, customerID: string, invoiceID: string): Promise<Invoice> {
  const invoice = /^\d{1,18}$/.test(invoiceID) ? await ctx.store.repository('invoices').get(invoiceID) : undefined
  if (!invoice || invoice.customerID !== customerID) throw notFound('invoice', invoiceID)
  return invoice
}

/** The date of a customer's next invoice by its billing cycle: a cycle after the last one, or the end of this month. */
export function nextInvoiceDate(customer: Customer, last: Invoice | undefined, today: DateOnly): DateOnly {
  const months = customer.billingCycle === 'Quarterly' ? 3 : customer.billingCycle === 'Annually' ? 12 : 1
  if (last?.invoiceDate) {
    let next = addMonths(last.invoiceDate, months)
    while (next < today) next = addMonths(next, months)
    return next
  }
  return addDays(addMonths(`${today.slice(0, 7)}-01` as DateOnly, 1), -1)
}

/** A call not yet invoiced, with the running total up to and including it. */
export interface RunningCall {
  readonly call: Call
  readonly runningTotal: Money
}

/** Calls rated but not yet billed, oldest first, each with the running total (contract 14.3). */
export async function uninvoicedCalls(ctx: PlatformContext, customerID: string): Promise<{ calls: RunningCall[]; total: Money; more: boolean }> {
  const rows = await ctx.store.repository('calls').list({
    where: [
      { op: 'eq', column: 'customerID', value: customerID },
      { op: 'isNull', column: 'transactionID', value: true },
      { op: 'eq', column: 'deleted', value: false },
    ],
    limit: PAGE_ROWS + 1,
  })
  let total = ZERO
  const calls = rows.slice(0, PAGE_ROWS).map((call) => {
    total = add(total, (call.cost ?? ZERO) as Money)
    return { call, runningTotal: total }
  })
  return { calls, total, more: rows.length > PAGE_ROWS }
}

/** One plan's allowance in one pool this month. */
export interface AllowanceRow {
  readonly pool: string
  readonly plan: string
  readonly minutes: number
}

/** The allowances of the customer's plans and pools this month, with the minutes used and left over all of them. */
export async function monthAllowances(ctx: PlatformContext, customerID: string, now: Stamp): Promise<{ rows: AllowanceRow[]; minutes: number; usedMinutes: number; leftMinutes: number }> {
  const holders = await ctx.store.rating.allowanceHolders([customerID])
  const byKey = new Map<string, AllowanceRow>()
  for (const h of holders) {
    const pool = h.poolName?.trim() ? h.poolName.trim() : `${h.kind === 'number' ? 'Number' : 'Feature'} ${h.id}`
    h.plans.forEach((name, i) => {
      const plan = name ? ctx.presets.discountPlans[name] : undefined
      if (!name || !plan) return
      const ms = allowanceMs(plan, h.multipliers[i] ?? null, h.featureCount)
      const key = `${pool}\u0000${name}`
      const was = byKey.get(key)
      byKey.set(key, { pool, plan: name, minutes: (was?.minutes ?? 0) + Number(ms) / 60_000 })
    })
  }
  const monthStart = `${now.slice(0, 7)}-01T00:00:00.000Z` as Stamp
  const next = toStamp(Date.parse(`${addMonths(now.slice(0, 10) as DateOnly, 1).slice(0, 7)}-01T00:00:00Z`))
  const calls = await ctx.store.rating.allowanceCalls([customerID], monthStart, next)
  const usedSeconds = calls.reduce((s, c) => s + (c.allowanceSeconds ?? 0), 0)
  const rows = [...byKey.values()]
  const minutes = rows.reduce((s, r) => s + r.minutes, 0)
  const usedMinutes = Math.round((usedSeconds / 60) * 10) / 10
  return { rows, minutes, usedMinutes, leftMinutes: Math.max(0, Math.round((minutes - usedMinutes) * 10) / 10) }
}

/** The customer's payments, newest first. */
export async function customerPayments(ctx: PlatformContext, customerID: string): Promise<Transaction[]> {
  const rows = await ctx.store.repository('transactions').list({
    where: [
      { op: 'eq', column: 'customerID', value: customerID },
      { op: 'eq', column: 'transactionType', value: 'Payment' },
    ],
    limit: 100_000,
  })
  return rows.reverse()
}
