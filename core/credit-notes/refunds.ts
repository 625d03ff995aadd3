import { allocateAccount } from '../billing/allocation.js'
import { settleAccounts } from '../billing/settle-accounts.js'
import { parseDate } from '../dates/date-only.js'
import { BillingError, notFound } from '../errors.js'
import type { Transaction } from '../fields/entity.js'
import { toWireJson } from '../fields/wire-json.js'
import { recordChanges } from '../history/record-change.js'
import { objectBody } from '../input/object-body.js'
import { formatAmount, parseMoney, round } from '../money/money.js'
import type { PlatformContext } from '../platform.js'

const HINT = 'Send {"amount": "25.00", "date": "YYYY-MM-DD", "reference": "..."} (date and reference optional).'
const invalid = (message: string, hint = HINT) => new BillingError('invalid_field', message, hint)

/**
 * Pays held credit back to a customer (contract 15.3): a `Refund` transaction of `amount`
 * (positive: it raises the balance back towards zero), dated `date` (default today), its
 * `reference` in the description. Never more than the credit held: that is measured with the
 * customer's row locked, so two refunds (or a refund and a new invoice) cannot both take the same credit.
 */
export async function createRefund(ctx: PlatformContext, customerID: string, body: unknown): Promise<Transaction> {
  const o = objectBody(body, HINT)
  for (const key of Object.keys(o)) if (!['amount', 'date', 'reference'].includes(key)) throw invalid(`Unknown field "${key}" of refund`)
  const given = parseMoney(o.amount)
  if (given === null) throw invalid('Field "amount" of refund is required: an amount with at most 4 decimals')
  const amount = round(given, 2)
  if (amount <= 0n) throw invalid('Field "amount" of refund must be above zero')
  const date = o.date === undefined || o.date === null ? ctx.clock.today() : parseDate(o.date)
  if (date === null) throw invalid('Field "date" of refund must be a date YYYY-MM-DD')
  if (o.reference !== undefined && o.reference !== null && (typeof o.reference !== 'string' || o.reference.length > 200)) throw invalid('Field "reference" of refund must be a text of at most 200 characters')
  const reference = typeof o.reference === 'string' && o.reference.trim() !== '' ? o.reference.trim() : null
  return ctx.store.transaction(async (store) => {
    if (!(await store.repository('customers').getForUpdate(customerID))) throw notFound('customer', customerID)
    const account = (await store.receivables.accounts([customerID])).get(customerID) ?? { invoices: [], settlements: [], allocations: [] }
    const { held } = allocateAccount(account.invoices, account.settlements, ctx.clock.today(), account.allocations)
    if (amount > held) {
      const shown = formatAmount(round(held, 2))
      throw invalid(`Field "amount" of refund is ${formatAmount(amount)}, more than the ${shown} of credit held`, `Refund at most ${shown}.`)
    }
    const now = ctx.clock.now()
    const refund = await store.repository('transactions').insert({
      customerID,
      transactionType: 'Refund',
      description: reference ? `Refund: ${reference}` : 'Refund',
      transactionDate: date,
      amount,
      VATRate: null,
      VATAmount: 0n as never,
      approved: false,
      // It takes back held credit in allocation (a settlement below zero), never goes on an invoice.
      settles: true,
      createdStamp: now,
      updatedStamp: now,
    })
    await settleAccounts(store, [customerID], ctx.clock.today(), now, { act: ctx })
    const transactions = ctx.resources.get('transactions')!
    await recordChanges(store, ctx.clock, [{ resource: transactions, action: 'create', before: null, after: refund }])
    await store.changes.append([], [{ type: 'refund.created', data: toWireJson(transactions, refund), createdStamp: now }])
    return refund
  })
}
