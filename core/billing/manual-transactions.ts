import { recordChanges } from '../history/record-change.js'
import { BillingError, notFound } from '../errors.js'
import { catalogue } from '../fields/catalogue.js'
import type { Transaction } from '../fields/entity.js'
import { neg, round } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import { settleAccounts } from './settle-accounts.js'
import { vatOn } from './vat.js'

/** Types whose amount is a credit to the customer: stored negative whatever sign is given. */
export const creditTypes: ReadonlySet<string> = new Set(['Payment', 'Credit Note', 'Recurring Charge Refund', 'Recurring Charge Adjustment Refund'])

/**
 * Types that a flow of their own writes, under rules of the contract that a manual row would
 * skip, with the way to make one. A Refund pays held credit back: expert level 3, and never more
 * than the credit held (contract 15.3); a manual one would be a charge of any amount at any level.
 * (Manual Credit Note, Debit Note, Payment and Call Charges rows are the one-off credits, payments
 * and charges contract 9.2 offers, so they stay.)
 */
const flowTypes: ReadonlyMap<string, string> = new Map([
  ['Refund', "Pay held credit back as one of the customer's refunds (contract 15.3): it needs expert level 3 and never pays more than the credit held."],
])

/**
 * Adds a manual transaction (a one-off charge, a credit or a payment) to a customer. The amount
 * is rounded half-up to pence (contract 9.1); a payment carries no VAT; the number, service or
 * feature it names must be the customer's.
 */
export async function addManualTransaction(ctx: PlatformContext, customerID: string, body: unknown): Promise<Transaction> {
  // The customer is checked before the body (contract 2's order), and again under its lock below.
  if (!(await ctx.store.repository('customers').get(customerID))) throw notFound('customer', customerID)
  const { values } = ctx.validator.validateInput(catalogue.transactions, body)
  const { transactionType: type, amount: given } = values
  const flow = type ? flowTypes.get(type) : undefined
  if (flow) throw new BillingError('invalid_field', `Field "transactionType" of transaction is "${type}", which is not a manual transaction`, flow)
  if (!type || given === undefined || given === null) {
    const name = type ? 'amount' : 'transactionType'
    throw new BillingError('invalid_field', `Field "${name}" of transaction is required`, `Give "${name}".`)
  }
  return ctx.store.transaction(async (store) => {
    const customer = await store.repository('customers').getForUpdate(customerID)
    if (!customer) throw notFound('customer', customerID)
    const owned = async (field: string, row: { readonly customerID: string | null } | undefined) => {
      if (!row || row.customerID !== customerID) {
        const level = `${field.slice(0, -2)}s`
        throw new BillingError('invalid_field', `Field "${field}" names no ${level.slice(0, -1)} of customer ${customerID}`, `Give the ID of one of the customer's ${level}.`)
      }
    }
    if (values.numberID) await owned('numberID', await store.repository('numbers').get(values.numberID))
    if (values.serviceID) await owned('serviceID', await store.repository('services').get(values.serviceID))
    const feature = values.featureID ? await store.repository('features').get(values.featureID) : undefined
    if (values.featureID) await owned('featureID', feature)
    const rounded = round(given, 2)
    const amount = creditTypes.has(type) ? (rounded > 0n ? neg(rounded) : rounded) : rounded
    const VATRate = type === 'Payment' ? null : (values.VATRate ?? feature?.VATRate ?? customer.VATRate ?? null)
    const now = ctx.clock.now()
    const settles = type === 'Payment'
    const inserted = await store.repository('transactions').insert({
      ...values,
      customerID,
      amount,
      VATRate,
      VATAmount: vatOn(amount, VATRate, ctx.presets),
      transactionDate: values.transactionDate ?? ctx.clock.today(),
      approved: false,
      // A payment pays invoices and never goes on one (contract 10.3).
      settles,
      createdStamp: now,
      updatedStamp: now,
    })
    if (settles) await settleAccounts(store, [customerID], ctx.clock.today(), now, { act: ctx })
    else await refreshCreditAlerts(store, [customerID], now, { act: ctx })
    await recordChanges(store, ctx.clock, [{ resource: ctx.resources.get('transactions')!, action: 'create', before: null, after: inserted }])
    return inserted
  })
}
