import type { Customer, Entity, Invoice, Transaction } from '../fields/entity.js'
import { add, ZERO, type Money } from '../money/money.js'
import { billStyles, type BillStyle } from '../presets/engine-lists.js'
import type { Presets } from '../presets/presets.js'
import { billFormatOf } from './bill-format.js'
import { displayDate, displayMoney } from './display.js'
import type { DocumentDetail, DocumentTable, InvoiceDocument } from './document-model.js'
import { billToOf } from './invoice-document.js'
import { sellerBlockOf } from './seller-block.js'

/** What a credit note's document is made from. */
export interface CreditNoteSources {
  readonly creditNote: Entity<'creditNotes'>
  readonly invoice: Pick<Invoice, 'id' | 'invoiceNumber' | 'invoiceDate'>
  readonly customer: Customer
  /** Its `Credit Note` lines, with the invoice line each credits. */
  readonly lines: readonly { readonly credit: Transaction; readonly credited: Transaction | null }[]
}

/**
 * A credit note's document (contract 15.3) in the invoice's document model, so the same PDF and
 * HTML renderers draw it: the seller, the customer, "Credit note for invoice <number>", the
 * reason, its lines and VAT by rate. Amounts show as the note stores them, negative.
 */
export function buildCreditNoteDocument(s: CreditNoteSources, presets: Pick<Presets, 'seller'>): InvoiceDocument {
  const { creditNote: note, customer } = s
  const currency = customer.currency
  const money = (m: Money | null) => displayMoney(m ?? ZERO, currency)
  const invoiceNumber = s.invoice.invoiceNumber ?? s.invoice.id
  const number = note.creditNoteNumber ?? note.id
  const details: [string, string | null][] = [
    ['Credit note number', number],
    ['Date', note.date ? displayDate(note.date) : null],
    ['Credits invoice', invoiceNumber],
    ['Invoice date', s.invoice.invoiceDate ? displayDate(s.invoice.invoiceDate) : null],
    ['Account number', customer.accountNumber],
    ['Your reference', customer.customerReference],
    ['Purchase order', customer.purchaseOrderNumber],
    ['Your VAT number', customer.customerVATNumber],
  ]
  const rates = new Map<string, { net: Money; vat: Money }>()
  for (const { credit } of s.lines) {
    const rate = credit.VATRate ?? 'No VAT'
    const r = rates.get(rate) ?? { net: ZERO, vat: ZERO }
    rates.set(rate, { net: add(r.net, credit.amount ?? ZERO), vat: add(r.vat, credit.VATAmount ?? ZERO) })
  }
  const twoColumns = [
    { label: '', align: 'left', width: 3 },
    { label: '', align: 'right', width: 2 },
  ] as const
  const totals: DocumentTable = {
    caption: null,
    columns: twoColumns,
    rows: [
      { key: 'netAmount', cells: ['Net', money(note.netAmount)] },
      { key: 'VATAmount', cells: ['VAT', money(note.VATAmount)] },
    ],
    footer: { key: 'totalAmount', cells: ['Total credit', money(note.totalAmount)] },
  }
  const vatByRate: DocumentTable = {
    caption: null,
    columns: [
      { label: 'VAT rate', align: 'left', width: 3 },
      { label: 'Net', align: 'right', width: 2 },
      { label: 'VAT', align: 'right', width: 2 },
    ],
    rows: [...rates.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([rate, r]) => ({ key: 'vat-rate', cells: [rate, money(r.net), money(r.vat)] })),
    footer: { key: 'vat-total', cells: ['Total', money(note.netAmount), money(note.VATAmount)] },
  }
  const lines: DocumentTable = {
    caption: null,
    columns: [
      { label: 'Credited line', align: 'left', width: 6 },
      { label: 'VAT rate', align: 'left', width: 3 },
      { label: 'Net', align: 'right', width: 2 },
      { label: 'VAT', align: 'right', width: 2 },
    ],
    rows: s.lines.map(({ credit, credited }) => ({
      key: `line-${credited?.id ?? credit.id}`,
      cells: [credited?.description ?? credited?.transactionType ?? credit.description ?? '', credit.VATRate ?? 'No VAT', money(credit.amount), money(credit.VATAmount)],
    })),
    footer: { key: 'lines-total', cells: ['Total', '', money(note.netAmount), money(note.VATAmount)] },
  }
  return {
    style: billStyles.includes(customer.billStyle as BillStyle) ? (customer.billStyle as BillStyle) : 'Standard',
    // A credit note turns as its customer's invoices do; it has no pages to group.
    orientation: billFormatOf(customer).orientation,
    heading: 'Credit note',
    title: `Credit note ${number}`,
    seller: sellerBlockOf(presets.seller),
    billTo: billToOf(customer),
    details: details.flatMap(([label, value]): DocumentDetail[] => (value ? [{ label, value }] : [])),
    totals,
    vatByRate,
    message: note.reason ? `Reason: ${note.reason}` : null,
    sections: [{ page: 'Charges', title: 'Credited lines', tables: [lines], note: null }],
    notices: [`Credit note for invoice ${invoiceNumber}`],
  }
}
