import { addDays, addMonths, calendarMonthsBetween, type DateOnly } from '../dates/date-only.js'
import { toStamp, type Stamp } from '../dates/stamp.js'
import { notFound } from '../errors.js'
import type { Customer, Entities } from '../fields/entity.js'
import { add, ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import { covers, customerAllowances, type AllowanceBucket } from '../rating/allowances.js'
import { showsNumberCalls } from './login-flags.js'

type Invoice = Entities['invoices']
type Call = Entities['calls']
type Transaction = Entities['transactions']

/** At most this many rows on a page of the portal; the API lists the rest. */
export const PAGE_ROWS = 500

/** The signed-in customer as read for the request, or 404 when it has gone (purged) or lost its portal. */
export function portalCustomer(customer: Customer | undefined, customerID: string): Customer {
  if (!customer?.portalCustomerProfile) throw notFound('customer', customerID)
  return customer
}

/**
 * Whether the portal shows an invoice: not a draft of a run in review (contract 16.1), which is not
 * the customer's until approved. A suppressed one (10.4, lowInvoiceAction `Suppress`) is shown: it
 * is raised and owed, only not sent (14.2), and the balance and Pay now the portal shows count it,
 * so hiding it would ask the customer for money it could not see the bill of.
 */
const shown = (i: Invoice): boolean => i.status !== 'Draft'

/** The customer's invoices the portal shows (`shown`), newest first. */
export async function customerInvoices(ctx: PlatformContext, customerID: string): Promise<Invoice[]> {
  const rows = await ctx.store.repository('invoices').list({ where: [{ op: 'eq', column: 'customerID', value: customerID }], limit: 100_000 })
  return rows.filter(shown).reverse()
}

/** One of the customer's own invoices the portal shows; any other ID is `not_found`, as if it did not exist. */
export async function ownInvoice(ctx: PlatformContext, customerID: string, invoiceID: string): Promise<Invoice> {
  const invoice = /^\d{1,18}$/.test(invoiceID) ? await ctx.store.repository('invoices').get(invoiceID) : undefined
  if (!invoice || invoice.customerID !== customerID || !shown(invoice)) throw notFound('invoice', invoiceID)
  return invoice
}

/**
 * The date of a customer's next invoice by its billing cycle (contract 14.3), from the date of
 * its last invoice as the billing cycle reads it (`ledger.lastInvoiceDates`, suppressed invoices
 * included, contract 10.1): the first whole number of cycles after that date that is not before
 * today, each counted from that date, so a cycle skipped does not move the day (31 Jan, none in
 * February: 31 Mar, not 28 Mar). A run on that date invoices the customer (`cycleDue`: as many
 * calendar months as the cycle, or more). Without an invoice: the end of this month.
 */
export function nextInvoiceDate(customer: Customer, lastInvoiceDate: DateOnly | undefined, today: DateOnly): DateOnly {
  const months = customer.billingCycle === 'Quarterly' ? 3 : customer.billingCycle === 'Annually' ? 12 : 1
  if (lastInvoiceDate) {
    // Calendar months from the last invoice to today, as the cycle counts them (`cycleDue`).
    let cycles = Math.max(1, Math.ceil(calendarMonthsBetween(lastInvoiceDate, today) / months))
    // In today's month, the day may still be before today's: then one cycle more.
    if (addMonths(lastInvoiceDate, cycles * months) < today) cycles++
    return addMonths(lastInvoiceDate, cycles * months)
  }
  return addDays(addMonths(`${today.slice(0, 7)}-01` as DateOnly, 1), -1)
}

/**
 * The customer's numbers whose calls the portal hides by their statistics flags (login-flags.ts).
 * Only numbers with an allow or deny list are read: a number with neither shows its calls.
 */
export async function hiddenCallNumbers(ctx: PlatformContext, customerID: string): Promise<string[]> {
  const withList = (column: 'loginFlagsAllow' | 'loginFlagsDeny') =>
    ctx.store.repository('numbers').list({
      where: [{ op: 'eq', column: 'customerID', value: customerID }, { op: 'hasName', column, value: null }],
      limit: 100_000,
      storedOnly: true,
    })
  const [allowing, denying] = await Promise.all([withList('loginFlagsAllow'), withList('loginFlagsDeny')])
  return [...new Set([...allowing, ...denying].filter((n) => !showsNumberCalls(n)).map((n) => n.id))]
}

/** A call not yet invoiced, with the running total up to and including it. */
export interface RunningCall {
  readonly call: Call
  readonly runningTotal: Money
}

/**
 * Calls not yet on an invoice, oldest first, each with the running total (contract 14.3): those
 * no run has billed, and those billed into a `Call Charges` row still unapproved (a low invoice
 * carried forward, or a run that has not finished), which are on no invoice either. The calls
 * of numbers whose flags hide them are left out by the query, of the rows and of the total alike.
 */
export async function uninvoicedCalls(ctx: PlatformContext, customerID: string): Promise<{ calls: RunningCall[]; total: Money; more: boolean }> {
  const calls = ctx.store.repository('calls')
  const [hidden, pending] = await Promise.all([
    hiddenCallNumbers(ctx, customerID),
    ctx.store.repository('transactions').list({
      where: [
        { op: 'eq', column: 'customerID', value: customerID },
        { op: 'eq', column: 'transactionType', value: 'Call Charges' },
        { op: 'eq', column: 'approved', value: false },
      ],
      limit: 100_000,
      storedOnly: true,
    }),
  ])
  const open = [
    { op: 'eq', column: 'customerID', value: customerID },
    { op: 'eq', column: 'deleted', value: false },
    { op: 'notIn', column: 'numberID', values: hidden },
  ] as const
  const unbilledWhere = [...open, { op: 'isNull', column: 'transactionID', value: true }] as const
  const carriedWhere = [...open, { op: 'in', column: 'transactionID', values: pending.map((t) => t.id) }] as const
  const [unbilled, carried, unbilledTotal, carriedTotal] = await Promise.all([
    calls.list({ where: unbilledWhere, limit: PAGE_ROWS + 1 }),
    pending.length ? calls.list({ where: carriedWhere, limit: PAGE_ROWS + 1 }) : [],
    calls.sum('cost', unbilledWhere),
    pending.length ? calls.sum('cost', carriedWhere) : ZERO,
  ])
  const rows = [...unbilled, ...carried].sort((a, b) => Number(BigInt(a.id) - BigInt(b.id))).slice(0, PAGE_ROWS + 1)
  let running = ZERO
  const shown = rows.slice(0, PAGE_ROWS).map((call) => {
    running = add(running, (call.cost ?? ZERO) as Money)
    return { call, runningTotal: running }
  })
  // The page shows the first PAGE_ROWS calls; the total is of every call not yet invoiced that it may show.
  return { calls: shown, total: add(unbilledTotal, carriedTotal), more: rows.length > PAGE_ROWS }
}

/** One plan's allowance in one pool this month, and how much of it is used. */
export interface AllowanceRow {
  readonly pool: string
  readonly plan: string
  readonly minutes: number
  readonly usedMinutes: number
  readonly leftMinutes: number
}

const toMinutes = (ms: bigint): number => Math.round(Number(ms) / 6_000) / 10

/**
 * The allowances of the customer's plans and pools this month (contract 14.3). What each call
 * used is stored as one figure; it is shared out over the call's buckets in the order the rater
 * takes them (core/rating/allowances.ts: billed calls first, then by start), which is how it was used.
 */
export async function monthAllowances(ctx: PlatformContext, customerID: string, now: Stamp): Promise<{ rows: AllowanceRow[]; minutes: number; usedMinutes: number; leftMinutes: number }> {
  const monthStart = `${now.slice(0, 7)}-01T00:00:00.000Z` as Stamp
  const next = toStamp(Date.parse(`${addMonths(now.slice(0, 10) as DateOnly, 1).slice(0, 7)}-01T00:00:00Z`))
  // With the month's dropped and ended holders: their allowances were the month's, as rating
  // counts them; without those starting after it, which give this month nothing.
  const read = await ctx.store.rating.allowanceHolders([customerID], `${now.slice(0, 7)}-01` as DateOnly)
  const holders = read.filter((h) => !h.from || h.from < next.slice(0, 10))
  const allowances = customerAllowances(holders, ctx.presets.discountPlans)
  const calls = await ctx.store.rating.allowanceCalls([customerID], monthStart, next)
  const buckets = new Map<string, { bucket: AllowanceBucket; used: bigint }>()
  const numbers = new Set([...holders.map((h) => h.numberID).filter((n): n is string => !!n), ...calls.map((c) => c.numberID)])
  for (const n of numbers) for (const b of allowances.bucketsOf(n)) if (!buckets.has(b.key)) buckets.set(b.key, { bucket: b, used: 0n })
  // A plan on the customer or a service covers every number: its buckets show under any number.
  for (const b of allowances.bucketsOf('\u0000any')) if (!buckets.has(b.key)) buckets.set(b.key, { bucket: b, used: 0n })
  for (const call of [...calls.filter((c) => c.billed), ...calls.filter((c) => !c.billed)]) {
    let want = BigInt(call.allowanceSeconds ?? 0) * 1000n
    for (const b of allowances.bucketsOf(call.numberID)) {
      if (want <= 0n) break
      if (!covers(b.plan, call.callType, call.chargeBand)) continue
      const entry = buckets.get(b.key)!
      const share = b.ms - entry.used < want ? b.ms - entry.used : want
      if (share <= 0n) continue
      entry.used += share
      want -= share
    }
  }
  const rows = [...buckets.values()].map(({ bucket, used }) => {
    const [pool, plan] = [bucket.key.slice(0, bucket.key.lastIndexOf('|')), bucket.key.slice(bucket.key.lastIndexOf('|') + 1)]
    return { pool: poolLabel(pool), plan, minutes: toMinutes(bucket.ms), usedMinutes: toMinutes(used), leftMinutes: toMinutes(bucket.ms - used) }
  })
  const total = (f: (r: AllowanceRow) => number) => Math.round(rows.reduce((s, r) => s + f(r), 0) * 10) / 10
  return { rows, minutes: total((r) => r.minutes), usedMinutes: total((r) => r.usedMinutes), leftMinutes: total((r) => r.leftMinutes) }
}

/** `pool:Sales` → `Sales`; a holder's own allowance → `Number 12` / `Feature 7`. */
function poolLabel(pool: string): string {
  if (pool.startsWith('pool:')) return pool.slice(5)
  const [kind, id] = pool.split(':')
  return `${kind === 'number' ? 'Number' : 'Feature'} ${id}`
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
