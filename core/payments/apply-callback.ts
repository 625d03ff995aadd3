import { BillingError, isBillingError, notFound } from '../errors.js'
import { describeChanges } from '../history/record-change.js'
import type { Customer, Transaction } from '../fields/entity.js'
import { toWireJson } from '../fields/wire-json.js'
import { accountCurrency, neg } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import type { PaymentProvider } from '../presets/presets.js'
import { settleAccounts } from '../billing/settle-accounts.js'
import { changeMandate } from './change-mandate.js'
import { findPaymentLink, type PaymentLinkRow, type PaymentLinkTarget } from './payment-links.js'
import type { ProviderCallback } from './provider-callback.js'

/** What a callback did: `duplicate` when its message or its payment was already recorded (answered 200 all the same). */
export type CallbackOutcome = 'recorded' | 'duplicate'

/**
 * Applies a provider's signed callback (contract 15.1) in one transaction with its history
 * entry and event. A link the provider did not make is as unknown as a link that does not exist.
 * `webhookID` is the message's Standard Webhooks id: a message seen before (a replay within its
 * signature's five minutes, a provider's retry, a copy sent at once) changes nothing, whatever its type.
 */
export async function applyProviderCallback(ctx: PlatformContext, provider: PaymentProvider, callback: ProviderCallback, webhookID: string): Promise<CallbackOutcome> {
  try {
    return await ctx.store.transaction(async (store) => {
      // Recorded in this transaction: a callback refused below (404, 400) rolls it back and may come again.
      if (!(await store.callbackReceipts.record(provider.name, webhookID, ctx.clock.now()))) return 'duplicate'
      const link = await findPaymentLink(store, callback.paymentLinkUUID)
      const made = (link?.links as readonly PaymentLinkTarget[] | null | undefined)?.some((l) => l.providerName === provider.name)
      if (!link || !made) throw notFound('payment link', callback.paymentLinkUUID)
      // The customer's row serialises callbacks for it: a second copy of a payment waits, then sees the first.
      const customer = await store.repository('customers').getForUpdate(link.customerID!)
      if (!customer) throw notFound('payment link', callback.paymentLinkUUID)
      switch (callback.type) {
        case 'payment.succeeded':
          return paymentSucceeded(ctx, store, provider, customer, link, callback)
        case 'payment.failed':
          await announce(ctx, store, 'payment.failed', customer, 'paymentFailed', { ...linkData(link), providerReference: callback.providerReference, occurredAt: callback.occurredAt })
          return 'recorded'
        default:
          return changeMandate(ctx, store, customer, callback)
      }
    })
  } catch (e) {
    // Two copies raced past the check on a database that does not lock rows: the unique index of
    // (paymentProvider, providerReference) kept one.
    if (isBillingError(e) && e.code === 'unique_taken' && callback.type === 'payment.succeeded') return 'duplicate'
    throw e
  }
}

async function paymentSucceeded(
  ctx: PlatformContext,
  store: Store,
  provider: PaymentProvider,
  customer: Customer,
  link: PaymentLinkRow,
  callback: ProviderCallback,
): Promise<CallbackOutcome> {
  if (await recordedBefore(store, provider, callback.providerReference)) return 'duplicate'
  // A customer without a currency is billed in the default one: a payment in another is not taken 1:1.
  const billedIn = accountCurrency(customer.currency)
  if (callback.currency && callback.currency.toUpperCase() !== billedIn.toUpperCase()) {
    throw new BillingError('invalid_field', `Field "currency" is ${callback.currency}; the customer is billed in ${billedIn}`, 'Pay in the currency of the account.')
  }
  const now = ctx.clock.now()
  // Already rounded to pence and above zero (provider-callback.ts).
  const amount = neg(callback.amount!)
  const payment: Transaction = await store.repository('transactions').insert({
    customerID: customer.id,
    transactionType: 'Payment',
    description: `${provider.label} (${callback.providerReference})`,
    transactionDate: callback.occurredOn,
    amount,
    VATRate: null,
    VATAmount: 0n as never,
    approved: false,
    settles: true,
    providerReference: callback.providerReference,
    paymentProvider: provider.name,
    createdStamp: now,
    updatedStamp: now,
  })
  await store.repository('paymentLinks').update(link.id, { status: 'Paid', paidStamp: callback.occurredAt, updatedStamp: now })
  // Announced as a manual payment is (`transaction.created`), then as the provider's: before the
  // allocation, so the feed reads the payment before the invoices it pays (`invoice.paid`).
  const { entries, events } = describeChanges([{ resource: ctx.resources.get('transactions')!, action: 'create', before: null, after: payment }], ctx.clock)
  await store.changes.append(entries, [...events, { type: 'payment.received', data: toWireJson(ctx.resources.get('transactions')!, payment), createdStamp: now }])
  // Allocated like any payment (contract 10.3): oldest due date first.
  await settleAccounts(store, [customer.id], ctx.clock.today(), now, { act: ctx })
  return 'recorded'
}

/**
 * Whether the provider's payment of this reference is recorded. A payment is its provider's and its
 * reference: another provider's payment of the same reference is another payment. One recorded
 * before payments kept their provider, whose provider could not be told (`paymentProvider` null),
 * counts as any provider's, so that no payment of then is recorded a second time.
 */
async function recordedBefore(store: Store, provider: PaymentProvider, providerReference: string): Promise<boolean> {
  for (const by of [provider.name, null]) {
    const where = [{ op: 'eq', column: 'paymentProvider', value: by }, { op: 'eq', column: 'providerReference', value: providerReference }] as const
    if ((await store.repository('transactions').list({ where, limit: 1 })).length) return true
  }
  return false
}

/** A history entry on the customer and an event, for what changes no row (a failed payment). */
async function announce(ctx: PlatformContext, store: Store, type: string, customer: Customer, action: string, data: Record<string, unknown>): Promise<void> {
  const createdStamp = ctx.clock.now()
  await store.changes.append(
    [{ resource: 'customers', resourceID: customer.id, customerID: customer.id, action, changes: {}, createdStamp }],
    [{ type, data: JSON.stringify(data), createdStamp }],
  )
}

const linkData = (link: PaymentLinkRow) => ({ paymentLinkUUID: link.paymentLinkUUID, customerID: link.customerID })
