import type { Stamp } from '../dates/stamp.js'
import { toStamp } from '../dates/stamp.js'
import type { Customer, Entities } from '../fields/entity.js'
import { sum, ZERO, type Money } from '../money/money.js'
import type { Clock } from '../ports/clock.js'
import type { Store } from '../ports/store.js'
import type { PaymentLinkType } from '../presets/presets.js'

export type PaymentLinkRow = Entities['paymentLinks']

/** One link of a payment link record: where the customer goes to pay, at which provider. */
export interface PaymentLinkTarget {
  readonly type: PaymentLinkType
  readonly providerName: string
  readonly label: string
  readonly url: string
}

/** An open link is good for this long; after it the provider's page may still take money, which is still credited. */
export const LINK_LIFETIME_DAYS = 30

/** The sum of the customer's invoices' outstanding amounts: what a link asks for (contract 15.1). */
export async function amountOutstanding(store: Store, customerID: string): Promise<Money> {
  const invoices = await store.repository('invoices').list({
    where: [
      { op: 'eq', column: 'customerID', value: customerID },
      { op: 'in', column: 'status', values: ['Unpaid', 'Overdue'] },
    ],
    limit: 100_000,
  })
  const outstanding = invoices.map((i) => (i.amountOutstanding ?? ZERO) as Money)
  return outstanding.length ? sum(outstanding) : ZERO
}

/** Records the links `generatePaymentLinks` made, Open, with the amount outstanding they ask for. */
export async function recordPaymentLink(store: Store, clock: Clock, customer: Customer, paymentLinkUUID: string, links: readonly PaymentLinkTarget[], amount: Money): Promise<PaymentLinkRow> {
  const now = clock.now()
  return store.repository('paymentLinks').insert({
    paymentLinkUUID,
    customerID: customer.id,
    amount,
    status: 'Open',
    links: links as never,
    createdStamp: now,
    updatedStamp: now,
  })
}

/**
 * Marks a customer's open links older than 30 days `Expired` (all customers' when null). Done
 * where links are read, so no job is needed for a status that only readers see.
 */
export async function expireLinks(store: Store, clock: Clock, customerID: string | null): Promise<void> {
  const now = clock.now()
  const cutoff: Stamp = toStamp(Date.parse(now) - LINK_LIFETIME_DAYS * 86_400_000)
  await store.repository('paymentLinks').updateWhere(
    [
      ...(customerID ? [{ op: 'eq' as const, column: 'customerID', value: customerID }] : []),
      { op: 'eq', column: 'status', value: 'Open' },
      { op: 'lte', column: 'createdStamp', value: cutoff },
    ],
    { status: 'Expired', updatedStamp: now },
  )
}

/** The link a provider's callback names, or undefined. */
export async function findPaymentLink(store: Store, paymentLinkUUID: string): Promise<PaymentLinkRow | undefined> {
  const [row] = await store.repository('paymentLinks').list({ where: [{ op: 'eq', column: 'paymentLinkUUID', value: paymentLinkUUID.toLowerCase() }], limit: 1 })
  return row
}
