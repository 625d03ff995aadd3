import { BillingError } from '../errors.js'
import type { Customer, ParamsOf, Transaction } from '../fields/entity.js'
import { date, field } from '../fields/field.js'
import { add, mulRatioRound, neg, sub, ZERO, type Money } from '../money/money.js'
import { allocateAccount } from './allocation.js'
import type { AccountAllocation } from '../ports/receivables.js'
import type { Account } from '../ports/receivables.js'
import type { PlatformContext } from '../platform.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import { recordChanges } from '../history/record-change.js'
import { settleAccounts } from './settle-accounts.js'

export const vatTreatments = ['standard', 'vat_exempt'] as const

/** The parameters of writeOffDebt and writeOffCredit. */
export const writeOffParams = [
  date('dateWriteoff', { required: true, description: 'date of the credit or debit note' }),
  field('vatTreatment', 'preset', {
    values: vatTreatments,
    description: 'standard (default: the VAT share of what is written off) or vat_exempt (all written off as net)',
  }),
] as const

/**
 * writeOffDebt (balance above zero → a Credit Note) and writeOffCredit (below zero → a Debit
 * Note) on a dropped customer, leaving a zero balance. `standard` carries the VAT share of what
 * it writes off (contract 17.6, see `writtenOffVat`); `vat_exempt` writes it all off as net.
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
    const account = (await store.receivables.accounts([customerID])).get(customerID) ?? { invoices: [], settlements: [], allocations: [] }
    const allocation = allocateAccount(account.invoices, account.settlements, ctx.clock.today(), account.allocations)
    const vatPart = params.vatTreatment === 'vat_exempt' ? ZERO : writtenOffVat(kind, allocation, account, { total: balance, vat })
    const netPart = sub(balance, vatPart)
    const now = ctx.clock.now()
    const transactions = store.repository('transactions')
    const note = await transactions.insert({
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
    // The note is a transaction created like a manual one (contract 12); the customer's entry is the action's.
    await recordChanges(store, ctx.clock, [{ resource: transactions.resource, action: 'create', before: null, after: note }])
    if (kind === 'debt') await settleAccounts(store, [customerID], ctx.clock.today(), now, { act: ctx })
    else await refreshCreditAlerts(store, [customerID], now, { act: ctx })
    return (await store.repository('customers').get(customerID))!
  })
}

/**
 * The VAT within a `standard` write-off (contract 17.6), signed like the balance. Of a debt: each
 * outstanding invoice's outstanding amount × its VAT ÷ its total, and likewise the charges not
 * invoiced yet (as one invoice, less the credit held for it). Of a credit: each held piece of a
 * credit note or credit invoice × its VAT ÷ its amount, nothing of money paid in, and the VAT of
 * credits not invoiced yet. Each share is rounded half up to the penny on its own.
 */
export function writtenOffVat(kind: 'debt' | 'credit', allocation: AccountAllocation, account: Account, balance: { total: Money; vat: Money }): Money {
  // What no invoice carries and no settlement is: the balance less both (a charge not yet invoiced).
  let uninvoiced = balance.total
  let uninvoicedVat = balance.vat
  for (const i of account.invoices) {
    uninvoiced = sub(uninvoiced, i.totalAmount)
    uninvoicedVat = sub(uninvoicedVat, i.VATAmount ?? ZERO)
  }
  for (const s of account.settlements) {
    uninvoiced = add(uninvoiced, s.amount)
    uninvoicedVat = add(uninvoicedVat, s.vat ?? ZERO)
  }
  let vat = ZERO
  if (kind === 'debt') {
    for (const invoice of account.invoices) {
      const outstanding = allocation.invoices.get(invoice.id)?.amountOutstanding ?? ZERO
      if (outstanding > 0n && invoice.totalAmount > 0n) vat = add(vat, share(outstanding, invoice.VATAmount ?? ZERO, invoice.totalAmount))
    }
    const outstanding = sub(uninvoiced, allocation.held)
    if (uninvoiced > 0n && outstanding > 0n) vat = add(vat, share(outstanding, uninvoicedVat, uninvoiced))
    return vat
  }
  for (const { source, amount } of allocation.heldFrom) if (source.vat) vat = sub(vat, share(amount, source.vat, source.amount))
  return uninvoiced < 0n ? add(vat, uninvoicedVat) : vat
}

/** Whether a transaction is a writeOffDebt's: a settling `Credit Note` of no credit note (it names no invoice line). */
export const isDebtWriteOff = (t: Transaction): boolean => t.transactionType === 'Credit Note' && t.settles === true && t.creditNoteID === null

/**
 * The net of what a debt write-off took of an invoice, `allocated` (VAT included): less the VAT
 * share `writtenOffVat` gives the invoice for it, or all of it when the write-off carries no VAT
 * (`vat_exempt` writes it all off as net). A credit note counts it as credited already (15.3).
 */
export function writtenOffNet(allocated: Money, writeOff: Transaction, invoice: { readonly totalAmount: Money | null; readonly VATAmount: Money | null }): Money {
  const total = invoice.totalAmount ?? ZERO
  if ((writeOff.VATAmount ?? ZERO) === ZERO || total <= 0n) return allocated
  return sub(allocated, share(allocated, invoice.VATAmount ?? ZERO, total))
}

/** `part` of an amount that carries `vat` in `whole`: its VAT, half up to the penny. */
const share = (part: Money, vat: Money, whole: Money): Money => mulRatioRound(part, vat, whole, 2)
