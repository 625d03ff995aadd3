import { markOverdue } from '../billing/settle-accounts.js'
import { heldByCreditLimit, keepSuspendedForCreditLimit } from '../credit/credit-limit-suspension.js'
import type { DateOnly } from '../dates/date-only.js'
import type { Customer, Invoice } from '../fields/entity.js'
import { toWireJson } from '../fields/wire-json.js'
import { lifecycleActions } from '../lifecycle/actions.js'
import { systemCustomerAction } from '../lifecycle/system-action.js'
import type { PlatformContext } from '../platform.js'
import { copiedOn, correspondenceSent } from '../delivery/correspondence.js'
import { profileOf } from '../presets/collections.js'
import { REGULATOR_PROTECTION, withholds } from '../presets/regulator-protection.js'
import type { Store } from '../ports/store.js'
import { dueSteps, takenSteps, type TakenStep } from './dunning-plan.js'

/** `statusReason` of a suspension dunning makes, and of its lifting (contract 15.2). */
export const DUNNING_REASON = 'Dunning'
export const DUNNING_CLEARED_REASON = 'Dunning cleared'
/** Who history names for the platform's own changes: the worker, the scheduler (contract 12). */
const SYSTEM_ACTOR = 'system'

const PAGE = 200

/**
 * The daily `dunning` job (contract 15.2). Invoices are first made `Overdue` where their date
 * has passed; then, a customer at a time with its row locked, each overdue invoice takes the
 * steps of its customer's profile that are due and not taken, once, in order, each recorded on
 * the invoice (`dunningSteps`), as history and as the event `dunning.step_taken`. A `suspend` or
 * `bar` the presets' `regulatorProtectedActions` withhold from a customer requiring regulator
 * protection is not performed: the step is recorded with
 * `withheld` and announced as `dunning.step_withheld`, for a person to decide. Then each
 * customer that dunning suspended and that owes nothing overdue any more is unsuspended (or, over
 * a credit limit that suspends, kept suspended for it). Run
 * twice, or by two workers at once, a step is still taken once: the second finds it recorded
 * under the same lock. Answers how many steps it took and customers it unsuspended.
 */
export async function runDunning(ctx: PlatformContext, signal?: AbortSignal): Promise<{ steps: number; unsuspended: number }> {
  const today = ctx.clock.today()
  await markOverdue(ctx, today, ctx.clock.now(), signal)
  let steps = 0
  let after = '0'
  const seen = new Set<string>()
  for (;;) {
    if (signal?.aborted) break
    const page = await ctx.store.repository('invoices').list({ where: [{ op: 'eq', column: 'status', value: 'Overdue' }], idAfter: after, limit: PAGE, storedOnly: true })
    for (const customerID of new Set(page.map((i) => i.customerID!))) {
      if (seen.has(customerID) || signal?.aborted) continue
      seen.add(customerID)
      steps += await ctx.store.transaction((store) => dunCustomer(ctx, store, customerID, today))
    }
    if (page.length < PAGE) break
    after = page.at(-1)!.id
  }
  return { steps, unsuspended: await liftClearedSuspensions(ctx, signal) }
}

/** Takes the due steps of one customer's overdue invoices; answers how many. */
async function dunCustomer(ctx: PlatformContext, store: Store, customerID: string, today: DateOnly): Promise<number> {
  const customer = await store.repository('customers').getForUpdate(customerID)
  if (!customer) return 0
  const profile = profileOf(ctx.presets, customer)
  // Read again under the lock: what another worker recorded meanwhile is seen here.
  const overdue = await store.repository('invoices').list({
    where: [
      { op: 'eq', column: 'customerID', value: customerID },
      { op: 'eq', column: 'status', value: 'Overdue' },
    ],
    limit: Number.MAX_SAFE_INTEGER,
  })
  let taken = 0
  // Each email lists every overdue invoice: one per action however many invoices take the step now.
  const emailed = new Set<TakenStep['action']>()
  for (const invoice of overdue) {
    const before = takenSteps(invoice.dunningSteps)
    let done = before
    for (const due of dueSteps(profile, invoice.overdueDate ?? invoice.dueDate!, today, before)) {
      // Cutting a protected customer off is a person's decision: the step is recorded as withheld, once, and announced.
      const withheld = withholds(ctx.presets, customer, due.action)
      const step: TakenStep = withheld ? { ...due, withheld: REGULATOR_PROTECTION } : due
      if (!withheld) await takeStep(ctx, store, customerID, invoice, step, emailed)
      done = [...done, step]
      const now = ctx.clock.now()
      const updated = (await store.repository('invoices').update(invoice.id, { dunningSteps: done, updatedStamp: now }))!
      const invoices = ctx.resources.get('invoices')!
      const event = withheld
        ? {
            type: 'dunning.step_withheld',
            data: `{"reason":"${REGULATOR_PROTECTION}","regulatorProtectionClass":${JSON.stringify(customer.regulatorProtectionClass)},"step":${JSON.stringify(step)},"invoice":${toWireJson(invoices, updated)},"customer":${toWireJson(ctx.resources.get('customers')!, customer)}}`,
          }
        : { type: 'dunning.step_taken', data: `{"step":${JSON.stringify(step)},"invoice":${toWireJson(invoices, updated)}}` }
      await store.changes.append(
        [{ resource: 'invoices', resourceID: invoice.id, customerID, action: 'dunningStep', changes: { dunningSteps: [done.slice(0, -1), done] }, createdStamp: now }],
        [{ ...event, createdStamp: now }],
      )
      taken++
    }
  }
  return taken
}

/**
 * What a step does (contract 15.2). A suspension is made only of a customer not already suspended
 * or dropped. A reminder or final notice lists all the customer's overdue invoices, so it is queued
 * once for the customer's steps taken together (`emailed`: the email actions queued so far), against
 * the first invoice that took it: several invoices taking one step on a day make one email, not
 * several alike.
 */
async function takeStep(ctx: PlatformContext, store: Store, customerID: string, invoice: Invoice, step: TakenStep, emailed: Set<TakenStep['action']>): Promise<void> {
  const now = ctx.clock.now()
  const action = step.action
  if (action === 'reminder' || action === 'finalNotice') {
    if (emailed.has(action)) return
    emailed.add(action)
    const customer = (await store.repository('customers').get(customerID))!
    const recipients = [
      ...(customer.email ? [{ contactID: null, email: customer.email }] : []),
      // A contact whose bill type is None asked for nothing by email (contract 14.2), reminders included, unless it names them.
      ...(await store.invoiceOutbox.contactCopies([customerID])).filter((c) => copiedOn(c, correspondenceSent.reminder)).map((c) => ({ contactID: c.contactID, email: c.email })),
    ]
    const deliveries = recipients.map((r) => ({
      invoiceID: invoice.id,
      customerID,
      contactID: r.contactID,
      channel: 'email' as const,
      recipient: r.email,
      billType: 'Summary Only' as const,
      status: 'Pending' as const,
      purpose: action,
    }))
    if (deliveries.length) await store.invoiceOutbox.record(deliveries, now)
    return
  }
  if (step.action === 'suspend') {
    const before = (await store.repository('customers').get(customerID))!
    if (before.isSuspended || before.isDropped) return
    await systemCustomerAction(ctx, store, before, 'suspend', DUNNING_REASON)
    return
  }
  // bar: barring is the network's; the event carries the customer and its active numbers.
  const customers = ctx.resources.get('customers')!
  const numbers = await store.repository('numbers').list({
    where: [
      { op: 'eq', column: 'customerID', value: customerID },
      { op: 'eq', column: 'isDropped', value: false },
    ],
    limit: Number.MAX_SAFE_INTEGER,
  })
  const customer = (await store.repository('customers').get(customerID))!
  const data = `{"reason":"dunning","invoiceID":${JSON.stringify(invoice.id)},"customer":${toWireJson(customers, customer)},"numbers":[${numbers.map((n) => toWireJson(ctx.resources.get('numbers')!, n)).join(',')}]}`
  await store.changes.append([], [{ type: 'customer.bar_requested', data, createdStamp: now }])
}

/**
 * Unsuspends (`statusReason` `Dunning cleared`) each customer that dunning suspended and that
 * has no overdue invoice left, unless it is over a credit limit its profile suspends for
 * (`onCreditLimit` `suspend`): that one stays suspended, `statusReason` `Credit Limit`. A
 * suspension a person made is never lifted here, whatever reason the person gave: `Dunning` is
 * an ordinary preset a person may pick too (`suspendedByDunning`).
 */
async function liftClearedSuspensions(ctx: PlatformContext, signal?: AbortSignal): Promise<number> {
  let lifted = 0
  let after = '0'
  for (;;) {
    if (signal?.aborted) return lifted
    const page = await ctx.store.repository('customers').list({
      where: [
        { op: 'eq', column: 'isSuspended', value: true },
        { op: 'eq', column: 'statusReason', value: DUNNING_REASON },
      ],
      idAfter: after,
      limit: PAGE,
      storedOnly: true,
    })
    for (const { id } of page) {
      lifted += await ctx.store.transaction(async (store) => {
        const customer = await store.repository('customers').getForUpdate(id)
        if (!customer?.isSuspended || customer.statusReason !== DUNNING_REASON) return 0
        const owed = await store.repository('invoices').list({
          where: [
            { op: 'eq', column: 'customerID', value: id },
            { op: 'eq', column: 'status', value: 'Overdue' },
          ],
          limit: 1,
          storedOnly: true,
        })
        if (owed.length) return 0
        if (!(await suspendedByDunning(store, id))) return 0
        // Over a limit its profile suspends for: that passing found it suspended already, so the suspension is the limit's now.
        if (heldByCreditLimit(ctx, customer)) {
          await keepSuspendedForCreditLimit(ctx, store, customer)
          return 0
        }
        await systemCustomerAction(ctx, store, customer, 'unsuspend', DUNNING_CLEARED_REASON)
        return 1
      })
    }
    if (page.length < PAGE) return lifted
    after = page.at(-1)!.id
  }
}

/**
 * Whether the customer's status is still the one dunning's own `suspend` step gave it: its
 * latest status action (contract 5.2) in history is a `suspend` by the platform itself
 * (`system`, contract 12; a request always has its request ID, so an API key named `system` is
 * told apart). That action set the `statusReason` the caller found, `Dunning`, which a credit
 * limit's suspension never gives. A person's status action since (an unsuspend and a suspend
 * again, a makeNonBillable) makes the status the person's: never lifted here.
 */
async function suspendedByDunning(store: Store, customerID: string): Promise<boolean> {
  const actions = await store.repository('history').list({
    where: [
      { op: 'eq', column: 'resource', value: 'customers' },
      { op: 'eq', column: 'resourceID', value: customerID },
      { op: 'in', column: 'action', values: lifecycleActions },
    ],
    limit: Number.MAX_SAFE_INTEGER,
  })
  const last = actions.at(-1)
  return last?.action === 'suspend' && last.apiKeyName === SYSTEM_ACTOR && last.requestID === null
}
