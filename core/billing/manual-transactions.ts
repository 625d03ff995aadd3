import { BillingError, notFound } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import { neg, round, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import { vatOn } from './ledger-writes.js'

/** Types whose amount is a credit to the customer: stored negative whatever sign is given. */
export const creditTypes: ReadonlySet<string> = new Set(['Payment', 'Credit Note', 'Recurring Charge Refund', 'Recurring Charge Adjustment Refund'])

/**
 * Adds a manual transaction (a one-off charge, a credit or a payment) to a customer. The amount
 * is rounded half-up to pence (contract 9.1); a payment carries no VAT; the number, service or
 * feature it names must be the customer's.
 */
export async function addManualTransaction(ctx: PlatformContext, customerID: string, body: unknown): Promise<Item> {
  // The customer is checked before the body (contract 2's order), and again under its lock below.
  if (!(await ctx.store.repository('customers').get(customerID))) throw notFound('customer', customerID)
  const resource = ctx.resources.get('transactions')!
  const { values } = ctx.validator.validateInput(resource, body)
  for (const name of ['transactionType', 'amount'] as const) {
    if (values[name] === undefined || values[name] === null) {
      throw new BillingError('invalid_field', `Field "${name}" of transaction is required`, `Give "${name}".`)
    }
  }
  return ctx.store.transaction(async (store) => {
    const customer = await store.repository('customers').getForUpdate(customerID)
    if (!customer) throw notFound('customer', customerID)
    let feature: Item | undefined
    for (const [field, level] of [
      ['numberID', 'numbers'],
      ['serviceID', 'services'],
      ['featureID', 'features'],
    ] as const) {
      const id = values[field] as string | null | undefined
      if (!id) continue
      const owned = await store.repository(level).get(id)
      if (!owned || owned.customerID !== customerID) {
        throw new BillingError('invalid_field', `Field "${field}" names no ${level.slice(0, -1)} of customer ${customerID}`, `Give the ID of one of the customer's ${level}.`)
      }
      if (level === 'features') feature = owned
    }
    const type = values.transactionType as string
    const given = round(values.amount as Money, 2)
    const amount = creditTypes.has(type) ? (given > 0n ? neg(given) : given) : given
    const VATRate =
      type === 'Payment' ? null : ((values.VATRate as string | null) ?? (feature?.VATRate as string | null) ?? (customer.VATRate as string | null) ?? null)
    const now = ctx.clock.now()
    const row: Values = {
      ...values,
      customerID,
      amount,
      VATRate,
      VATAmount: vatOn(amount, VATRate, ctx.presets),
      transactionDate: (values.transactionDate as string | null) ?? ctx.clock.today(),
      approved: false,
      createdStamp: now,
      updatedStamp: now,
    }
    return store.repository('transactions').insert(row)
  })
}
