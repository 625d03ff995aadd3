import { BillingError } from '../errors.js'
import type { Customer, ParamsOf } from '../fields/entity.js'
import { date, field } from '../fields/field.js'
import { add, mulRatio, neg, round, sub, ZERO } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import { settleAccounts } from './settle-accounts.js'

export const vatTreatments = ['standard', 'vat_exempt'] as const

/** The parameters of writeOffDebt and writeOffCredit. */
export const writeOffParams = [
  date('dateWriteoff', { required: true, description: 'date of the credit or debit note' }),
  field('vatTreatment', 'preset', {
    values: vatTreatments,
    description: 'standard (default: VAT in the proportion of the customer\'s transactions) or vat_exempt (all written off as net)',
  }),
] as const

/**
 * writeOffDebt (balance above zero → a Credit Note) and writeOffCredit (below zero → a Debit
 * Note) on a dropped customer, leaving a zero balance. `standard` splits the balance into net and
 * VAT in the proportion of the customer's transactions; `vat_exempt` writes it all off as net.
 */
export async function writeOff(ctx: PlatformContext, customerID: string, kind: 'debt' | 'credit', params: ParamsOf<typeof writeOffParams>): Promise<Customer> {
  const action = kind === 'debt' ? 'writeOffDebt' : 'writeOffCredit'
  return ctx.store.transaction(async (store) => {
    const customer = (await store.repository('customers').getForUpdate(customerID))!
    const { net, vat } = await store.ledger.totals(customerID)
    const balance = add(net, vat)
    if (!customer.isDropped) {
      throw new BillingError('state_not_allowed', `Customer ${customerID} is not dropped`, `Drop the customer before ${action}.`)
    }
    if (kind === 'debt' ? balance <= 0n : balance >= 0n) {
      throw new BillingError(
        'state_not_allowed',
        `Customer ${customerID} has ${kind === 'debt' ? 'no debt' : 'no credit'} to write off (balance ${balance === 0n ? 'zero' : kind === 'debt' ? 'in credit' : 'in debt'})`,
        kind === 'debt' ? 'writeOffDebt needs a balance above zero.' : 'writeOffCredit needs a balance below zero.',
      )
    }
    const vatPart = params.vatTreatment === 'vat_exempt' || balance === 0n ? ZERO : round(mulRatio(balance, vat, balance), 2)
    const netPart = sub(balance, vatPart)
    const now = ctx.clock.now()
    await store.repository('transactions').insert({
      customerID,
      transactionType: kind === 'debt' ? 'Credit Note' : 'Debit Note',
      description: kind === 'debt' ? 'Debt written off' : 'Credit written off',
      transactionDate: params.dateWriteoff,
      amount: neg(netPart),
      VATAmount: neg(vatPart),
      VATRate: null,
      approved: false,
      // Written-off debt pays the invoices it writes off, like a payment (contract 10.3).
      settles: kind === 'debt',
      createdStamp: now,
      updatedStamp: now,
    })
    if (kind === 'debt') await settleAccounts(store, [customerID], ctx.clock.today(), now)
    else await refreshCreditAlerts(store, [customerID], now)
    return (await store.repository('customers').get(customerID))!
  })
}
