import { BillingError, notFound } from '../errors.js'
import type { Entity, Transaction } from '../fields/entity.js'
import { recordChanges } from '../history/record-change.js'
import { toWireJson } from '../fields/wire-json.js'
import { neg, sum, ZERO, type Money } from '../money/money.js'
import { formatInvoiceNumber } from '../numbering/invoice-number.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { settleAccounts } from '../billing/settle-accounts.js'
import { isDebtWriteOff, writtenOffNet } from '../billing/write-offs.js'
import { creditLinesOf, type CreditableLine } from './credit-lines.js'
import { readCreditNoteBody } from './credit-note-request.js'
import { refundedOf } from './refunded-lines.js'

export type CreditNote = Entity<'creditNotes'>

/**
 * Issues a credit note against an invoice (contract 15.3), all or nothing: its gapless number,
 * one negative `Credit Note` line per credited invoice line at that line's VAT rate, allocated
 * to the invoice first and then as held credit, a history entry and the event
 * `credit_note.issued`. The customer's row is locked first, so two credit notes of one customer
 * (or a credit note and a refund) are made one after the other, each seeing what the other
 * credited: a line is never credited beyond its amount, however the requests race.
 */
export async function issueCreditNote(ctx: PlatformContext, invoiceID: string, body: unknown): Promise<CreditNote> {
  const { reason, request } = readCreditNoteBody(body)
  return ctx.store.transaction(async (store) => {
    const found = await store.repository('invoices').get(invoiceID)
    if (!found) throw notFound('invoice', invoiceID)
    const customerID = found.customerID!
    if (!(await store.repository('customers').getForUpdate(customerID))) throw notFound('customer', customerID)
    const invoice = (await store.repository('invoices').get(invoiceID))!
    // A draft has no number until it is raised (contract 16.1): only a raised invoice is credited.
    if (invoice.invoiceNumber === null) {
      throw new BillingError('state_not_allowed', `Invoice ${invoiceID} is not raised yet (it has no invoice number)`, 'Credit an invoice once it is raised.')
    }
    const lines = await creditableLines(store, invoiceID)
    const credited = creditLinesOf(lines, request, await writtenOff(store, invoice))
    const now = ctx.clock.now()
    const today = ctx.clock.today()
    const seq = await store.invoiceNumbers.take(1, 'creditNotes')
    const net = neg(sum(credited.map((l) => l.net)))
    const vat = neg(sum(credited.map((l) => l.vat)))
    const note = await store.repository('creditNotes').insert({
      creditNoteNumber: formatInvoiceNumber(ctx.presets.creditNoteNumberFormat, seq, today),
      customerID,
      invoiceID,
      date: today,
      reason,
      netAmount: net,
      VATAmount: vat,
      totalAmount: (net + vat) as Money,
      transactionIDs: [],
      createdStamp: now,
      updatedStamp: now,
    })
    const byId = new Map(lines.map((l) => [l.id, l]))
    const rows: Transaction[] = []
    for (const line of credited) {
      rows.push(
        await store.repository('transactions').insert({
          customerID,
          transactionType: 'Credit Note',
          description: `${note.creditNoteNumber}: ${byId.get(line.transactionID)!.description}`,
          transactionDate: today,
          amount: neg(line.net),
          VATRate: line.VATRate,
          VATAmount: neg(line.vat),
          approved: false,
          // It pays its invoice, then is held (contract 15.3, 10.3): never a line of a later invoice.
          settles: true,
          creditNoteID: note.id,
          creditedTransactionID: line.transactionID,
          createdStamp: now,
          updatedStamp: now,
        }),
      )
    }
    const issued = (await store.repository('creditNotes').update(note.id, { transactionIDs: rows.map((r) => r.id) }))!
    await settleAccounts(store, [customerID], today, now, { act: ctx })
    const creditNotes = ctx.resources.get('creditNotes')!
    const transactions = ctx.resources.get('transactions')!
    await recordChanges(store, ctx.clock, [
      { resource: creditNotes, action: 'create', before: null, after: issued },
      ...rows.map((after) => ({ resource: transactions, action: 'create', before: null, after })),
    ])
    await store.changes.append([], [{ type: 'credit_note.issued', data: toWireJson(creditNotes, issued), createdStamp: now }])
    return issued
  })
}

/**
 * The net that debt write-offs took of the invoice: their allocations to it (contract 10.3),
 * less their VAT share as the write-off reckoned it (17.6). Their rows name no invoice line,
 * so only the allocation says which invoice they cleared and by how much.
 */
async function writtenOff(store: Store, invoice: Entity<'invoices'>): Promise<Money> {
  const paidBy = (await store.receivables.invoicePayments(invoice.id)).filter((p) => p.transactionID !== null)
  if (paidBy.length === 0) return ZERO
  const rows = await store.repository('transactions').listIn('id', paidBy.map((p) => p.transactionID!))
  const writeOffs = new Map(rows.filter(isDebtWriteOff).map((t) => [t.id, t]))
  return writtenOffNet(paidBy.flatMap((p) => (writeOffs.has(p.transactionID!) ? [{ amount: p.amount, writeOff: writeOffs.get(p.transactionID!)! }] : [])), invoice)
}

/** The invoice's lines with what earlier credit notes took of each and what the engine refunded since, in ID order. */
async function creditableLines(store: Store, invoiceID: string): Promise<(CreditableLine & { description: string })[]> {
  const lines = await store.repository('transactions').listIn('invoiceID', [invoiceID])
  const earlier = lines.length ? await store.repository('transactions').listIn('creditedTransactionID', lines.map((l) => l.id)) : []
  const features = [...new Set(lines.flatMap((l) => (l.featureID && l.kind ? [l.featureID] : [])))]
  const refunded = new Map<string, Money>()
  for (const rows of (features.length ? await store.ledger.engineRows(features) : new Map()).values()) {
    for (const [id, net] of refundedOf(rows)) refunded.set(id, net)
  }
  return lines.map((l) => {
    const mine = earlier.filter((c) => c.creditedTransactionID === l.id)
    return {
      id: l.id,
      amount: l.amount ?? ZERO,
      VATAmount: l.VATAmount ?? ZERO,
      VATRate: l.VATRate,
      creditedNet: neg(sum(mine.map((c) => c.amount ?? ZERO))),
      creditedVat: neg(sum(mine.map((c) => c.VATAmount ?? ZERO))),
      refundedNet: refunded.get(l.id),
      description: l.description ?? l.transactionType ?? 'line',
    }
  })
}
