import { dateParam, readParams, type ParamRule } from '../actions/params.js'
import { BillingError } from '../errors.js'
import type { Item } from '../fields/item.js'
import { mulRatio, neg, round, sub, ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'

export const vatTreatments = ['standard', 'vat_exempt'] as const
type VatTreatment = (typeof vatTreatments)[number]

const treatment: ParamRule<VatTreatment> = {
  name: 'vatTreatment',
  hint: 'standard (pro-rata VAT from the original transactions) or vat_exempt.',
  parse: (v) => ((vatTreatments as readonly unknown[]).includes(v) ? (v as VatTreatment) : null),
}

/**
 * writeOffDebt (balance above zero → a Credit Note) and writeOffCredit (below zero → a Debit
 * Note) on a dropped customer, leaving a zero balance. `standard` splits the balance into net and
 * VAT in the proportion of the customer's transactions; `vat_exempt` writes it all off as net.
 */
export async function writeOff(ctx: PlatformContext, customerID: string, kind: 'debt' | 'credit', body: Record<string, unknown>): Promise<Item> {
  const action = kind === 'debt' ? 'writeOffDebt' : 'writeOffCredit'
  const params = readParams(action, body, { dateWriteoff: dateParam('dateWriteoff', true), vatTreatment: treatment })
  return ctx.store.transaction(async (store) => {
    const customer = (await store.repository('customers').getForUpdate(customerID))!
    const { net, vat } = await store.ledger.totals(customerID)
    const balance = (net + vat) as Money
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
    const vatPart = params.vatTreatment === 'vat_exempt' || net + vat === 0n ? ZERO : round(mulRatio(balance, vat, net + vat), 2)
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
      createdStamp: now,
      updatedStamp: now,
    })
    return (await store.repository('customers').get(customerID))!
  })
}
