import { BillingError } from '../errors.js'
import type { Customer } from '../fields/entity.js'
import { text } from '../fields/field.js'
import type { PaymentLinkType } from '../presets/presets.js'
import type { PlatformContext } from '../platform.js'
import { amountOutstanding, recordPaymentLink } from '../payments/payment-links.js'
import { formatMoney, round } from '../money/money.js'

export type SideEffectContext = PlatformContext

/** The parameter of linkToAccounting (contract 7). */
export const accountingParams = [text('accountingID', { required: true, format: 'uuid', description: 'UUID of the customer in the external accounting system' })] as const

/** A new 6-digit portal PIN from a cryptographic source, stored only as a hash (contract 7). */
export async function generatePIN(ctx: SideEffectContext, customer: Customer): Promise<{ pin: string }> {
  const pin = ctx.random.digits(6)
  const hash = await ctx.passwords.hash(pin)
  await ctx.store.repository('customers').update(customer.id, { portalPIN: hash, updatedStamp: ctx.clock.now() })
  return { pin }
}

/** Stores (or clears) the customer's UUID in the external accounting system. */
export async function setAccountingID(ctx: PlatformContext, customer: Customer, accountingID: string | null): Promise<Customer> {
  return (await ctx.store.repository('customers').update(customer.id, {
    accountingID: accountingID?.toLowerCase() ?? null,
    updatedStamp: ctx.clock.now(),
  }))!
}

/** One payment link made for a customer. */
export interface PaymentLink {
  readonly type: PaymentLinkType
  readonly providerName: string
  readonly label: string
  readonly url: string
}

/**
 * One link per link type the customer's portal profile enables, from the first provider
 * configured for that type. No profile → `state_not_allowed`; a provider failure →
 * `payment_links_failed`.
 */
export async function generatePaymentLinks(
  ctx: SideEffectContext,
  customer: Customer,
): Promise<{ success: true; paymentLinkUUID: string; links: PaymentLink[] }> {
  const profile = customer.portalCustomerProfile
  if (!profile) {
    throw new BillingError(
      'state_not_allowed',
      `Customer ${customer.id} has no self-service portal profile`,
      'Set portalCustomerProfile on the customer first.',
    )
  }
  const types = ctx.presets.portalProfiles[profile] ?? []
  const paymentLinkUUID = ctx.random.uuid()
  const outstanding = await amountOutstanding(ctx.store, customer.id)
  const links: PaymentLink[] = []
  for (const type of types) {
    const provider = ctx.presets.paymentProviders.find((p) => p.type === type)
    if (!provider) continue
    let url: string
    try {
      url = await ctx.paymentLinks.createLink({
        provider,
        paymentLinkUUID,
        customerID: customer.id,
        accountNumber: customer.accountNumber,
        amount: formatMoney(round(outstanding, 2)).slice(0, -2),
      })
    } catch (e) {
      throw new BillingError(
        'payment_links_failed',
        `Payment provider ${provider.name} failed to create a ${type} link`,
        'Retry later; if it persists, check the provider configuration.',
      )
    }
    links.push({ type, providerName: provider.name, label: provider.label, url })
  }
  // Kept, so the provider's callback finds the customer it credits (contract 15.1).
  await recordPaymentLink(ctx.store, ctx.clock, customer, paymentLinkUUID, links, outstanding)
  return { success: true, paymentLinkUUID, links }
}
