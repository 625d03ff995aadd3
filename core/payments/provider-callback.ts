import * as v from 'valibot'
import { BillingError } from '../errors.js'
import { parseDatetime, type Stamp } from '../dates/stamp.js'
import type { DateOnly } from '../dates/date-only.js'
import { LARGEST_AMOUNT, parseMoney, round, withinMoneyBound, type Money } from '../money/money.js'

export const callbackTypes = ['payment.succeeded', 'payment.failed', 'mandate.created', 'mandate.cancelled'] as const
/** What a provider can report (contract 15.1). */
export type CallbackType = (typeof callbackTypes)[number]

/** A provider's callback, checked. */
export interface ProviderCallback {
  readonly type: CallbackType
  readonly paymentLinkUUID: string
  /** Rounded half-up to pence (contract 9.1), above zero for `payment.succeeded`; null where the callback gives none. */
  readonly amount: Money | null
  readonly currency: string | null
  /** The provider's own reference: a payment's (one per payment) or a mandate's. */
  readonly providerReference: string
  readonly occurredAt: Stamp
  readonly occurredOn: DateOnly
}

const Body = v.object({
  type: v.picklist(callbackTypes),
  paymentLinkUUID: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  amount: v.optional(v.nullable(v.union([v.number(), v.string()]))),
  currency: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(10)))),
  providerReference: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  occurredAt: v.string(),
})

/** Reads a callback's JSON body; a malformed one is `invalid_field`, naming what is wrong. */
export function toProviderCallback(body: unknown): ProviderCallback {
  const parsed = v.safeParse(Body, body)
  if (!parsed.success) {
    const issue = parsed.issues[0]
    const path = v.getDotPath(issue) ?? 'body'
    throw new BillingError('invalid_field', `Field "${path}" of the callback is invalid: ${issue.message}`, 'Send type, paymentLinkUUID, amount, currency, providerReference and occurredAt.')
  }
  const b = parsed.output
  const occurredAt = parseDatetime(b.occurredAt)
  if (!occurredAt) throw new BillingError('invalid_field', 'Field "occurredAt" of the callback is not a datetime', 'Give YYYY-MM-DDTHH:mm:ssZ.')
  const given = b.amount === undefined || b.amount === null ? null : parseMoney(b.amount)
  if (b.amount !== undefined && b.amount !== null && given === null) {
    throw new BillingError('invalid_field', 'Field "amount" of the callback is not an amount', 'Give a decimal amount with at most 4 places.')
  }
  if (given !== null && !withinMoneyBound(given)) {
    throw new BillingError('invalid_field', `Field "amount" of the callback is beyond the largest amount accepted (${LARGEST_AMOUNT} either way)`, 'Give the amount paid.')
  }
  // Rounded before the check: 0.004 is above zero but would be a payment of 0.00 marking the link Paid.
  const amount = given === null ? null : round(given, 2)
  if (b.type === 'payment.succeeded' && (amount === null || amount <= 0n)) {
    throw new BillingError('invalid_field', 'Field "amount" of a payment.succeeded callback must be at least 0.01 once rounded to pence', 'Give the amount paid.')
  }
  // A payment is taken 1:1 only in the account's currency: one that does not say its currency is not.
  if (b.type === 'payment.succeeded' && !b.currency) {
    throw new BillingError('invalid_field', 'Field "currency" of a payment.succeeded callback is required', 'Give the currency paid in (ISO 4217, as GBP).')
  }
  return {
    type: b.type,
    paymentLinkUUID: b.paymentLinkUUID.toLowerCase(),
    amount,
    currency: b.currency ?? null,
    providerReference: b.providerReference,
    occurredAt,
    occurredOn: occurredAt.slice(0, 10) as DateOnly,
  }
}
