import type { Customer } from '../fields/entity.js'
import { describeChanges } from '../history/record-change.js'
import { accountCurrency, moneyToNumberText, sub, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import type { AutoTopupPresets } from '../presets/auto-topup-thresholds.js'

/** A top-up due now: the threshold the customer's funds are below, and the amount to ask for. */
export interface DueTopup {
  readonly threshold: Money
  readonly amount: Money
}

/** What deciding needs of a customer. */
export interface TopupTerms {
  readonly autoTopupProfile: string | null
  readonly autoTopupAmount: Money | null
}

/**
 * Whether a customer whose funds (money it holds: minus its balance, minus its unbilled call
 * charges) are `funds` is due a top-up: its `autoTopupProfile` has a threshold in the presets'
 * `autoTopupThresholds` (`None`, no profile or a name no longer configured: never) and its funds
 * are below it. The amount is its `autoTopupAmount`; unset or not above zero, what brings its
 * funds back to the threshold; either rounded up to the penny.
 */
export function topupDue(presets: AutoTopupPresets, customer: TopupTerms, funds: Money): DueTopup | null {
  const profile = customer.autoTopupProfile
  if (profile === null || !Object.hasOwn(presets.autoTopupThresholds, profile)) return null
  const threshold = presets.autoTopupThresholds[profile]
  if (funds >= threshold) return null
  const amount = customer.autoTopupAmount !== null && customer.autoTopupAmount > 0n ? customer.autoTopupAmount : sub(threshold, funds)
  return { threshold, amount: upToPenny(amount) }
}

/** A provider collects whole pence: a gap of 3.4567 (funds carry unbilled calls' 4 decimals) asks 3.46, so the funds reach the threshold. */
const PENNY = 100n
const upToPenny = (m: Money): Money => (((m + PENNY - 1n) / PENNY) * PENNY) as Money

const PAGE = 500

/**
 * The `auto-topup` job: the platform decides when a customer's top-up is due and announces it;
 * collecting the money is the payment provider's job, and the money arrives later as a payment
 * (a provider's callback, contract 15.1, or a `Payment` transaction) like any other. As barring
 * is the network's (contract 15.2, `customer.bar_requested`).
 *
 * A customer due a top-up (`topupDue`) that has none requested is asked for one, once: the event
 * `customer.topup_requested` (`customerID`, `accountNumber`, `amount`, `currency`, `threshold`,
 * `funds`, `paymentMethod`, `directDebitMandate`), a history entry (`topupRequested`) and the
 * customer's read-only `autoTopupRequestedDate`, in one transaction (contract 12). While its funds
 * stay below the threshold it is not asked again; once they are back at or above it (or it no
 * longer has a threshold, or is dropped or in final bill), the mark is cleared (history entry
 * `topupCleared`), so the next fall asks again. Dropped customers and customers in final bill are
 * never asked. The database picks the customers (`AutoTopups.candidates`), a page at a time; each
 * change is made with the customer's row locked and its funds read again, so two runs at once
 * still ask once. Answers how many were asked and how many cleared.
 */
export async function requestTopups(ctx: PlatformContext, signal?: AbortSignal): Promise<{ requested: number; cleared: number }> {
  const profiles = Object.keys(ctx.presets.autoTopupThresholds)
  let requested = 0
  let cleared = 0
  let after = '0'
  for (;;) {
    if (signal?.aborted) break
    const page = await ctx.store.autoTopups.candidates(profiles, after, PAGE)
    const funds = page.length ? await ctx.store.autoTopups.funds(page.map((c) => c.id)) : new Map<string, Money>()
    for (const c of page) {
      if (signal?.aborted) break
      const due = !c.closed && topupDue(ctx.presets, c, funds.get(c.id)!) !== null
      if (due === (c.autoTopupRequestedDate !== null)) continue
      const outcome = await ctx.store.transaction((store) => settleTopup(ctx, store, c.id))
      if (outcome === 'requested') requested++
      if (outcome === 'cleared') cleared++
    }
    if (page.length < PAGE) break
    after = page.at(-1)!.id
  }
  return { requested, cleared }
}

/** Asks for or clears one customer's top-up under its lock; null when there is nothing to change (another run did it). */
async function settleTopup(ctx: PlatformContext, store: Store, customerID: string): Promise<'requested' | 'cleared' | null> {
  const customer = await store.repository('customers').getForUpdate(customerID)
  if (!customer) return null
  const funds = (await store.autoTopups.funds([customerID])).get(customerID)!
  const due = customer.isDropped || customer.isFinalBill ? null : topupDue(ctx.presets, customer, funds)
  if ((due !== null) === (customer.autoTopupRequestedDate !== null)) return null
  const now = ctx.clock.now()
  const after = (await store.repository('customers').update(customerID, { autoTopupRequestedDate: due ? ctx.clock.today() : null, updatedStamp: now }))!
  const { entries } = describeChanges([{ resource: ctx.resources.get('customers')!, action: due ? 'topupRequested' : 'topupCleared', before: customer, after }], ctx.clock)
  await store.changes.append(entries, due ? [{ type: 'customer.topup_requested', data: topupJson(customer, due, funds), createdStamp: now }] : [])
  return due ? 'requested' : 'cleared'
}

/** The event's data: what the payment provider needs to collect it, and why it is due (amounts as the API's JSON numbers). */
function topupJson(customer: Customer, due: DueTopup, funds: Money): string {
  const text = (v: string | null) => JSON.stringify(v)
  return `{"customerID":${text(customer.id)},"accountNumber":${text(customer.accountNumber)},"amount":${moneyToNumberText(due.amount)},"currency":${text(accountCurrency(customer.currency))},"threshold":${moneyToNumberText(due.threshold)},"funds":${moneyToNumberText(funds)},"paymentMethod":${text(customer.paymentMethod)},"directDebitMandate":${text(customer.directDebitMandate)}}`
}
