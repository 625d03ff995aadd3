import type { Customer, Invoice } from '../fields/entity.js'
import { add, ZERO, type Money } from '../money/money.js'
import { billStyles, type BillPage, type BillStyle } from '../presets/engine-lists.js'
import type { Presets } from '../presets/presets.js'
import { billFormatOf } from './bill-format.js'
import { numberShows, pagesOf, type BillLength, type NumberShows } from './bill-pages.js'
import { callsByNumberSection, callsByTypeSection, itemisedCallsSection } from './call-sections.js'
import { chargeSection, summarySection } from './charge-sections.js'
import { displayDate, displayMoney } from './display.js'
import type { DocumentDetail, DocumentSection, DocumentTable, InvoiceDocument } from './document-model.js'
import { groupedSection } from './grouped-sections.js'
import type { InvoiceSources } from './invoice-sources.js'
import { paymentsSection } from './payment-section.js'
import { sellerBlockOf } from './seller-block.js'

export interface DocumentOptions {
  readonly length: BillLength
  readonly presets: Pick<Presets, 'invoiceMessages' | 'seller'>
}

type SectionOf = (s: InvoiceSources, shows: NumberShows, currency: string | null) => DocumentSection

const sectionOf: Record<BillPage, SectionOf> = {
  Summary: (s, _shows, currency) => summarySection(s, currency),
  Charges: (s, shows, currency) => chargeSection(s, 'charges', shows, currency),
  Services: (s, shows, currency) => chargeSection(s, 'services', shows, currency),
  'Calls by Number': callsByNumberSection,
  'Calls by Type': callsByTypeSection,
  'Itemised Calls': itemisedCallsSection,
  Payments: (s, _shows, currency) => paymentsSection(s, currency),
}

/**
 * The one model of an invoice's document (contract 10.5), which the PDF and HTML renderers
 * draw: pure, from the invoice and what it is made of. The customer's short or long page list
 * picks the pages; each number's own list limits its part of them. Its `billFormatOverride`
 * turns the sheets or groups the pages' lines (bill-format.ts says how each name reads).
 */
export function buildInvoiceDocument(s: InvoiceSources, options: DocumentOptions): InvoiceDocument {
  const { invoice, customer } = s
  const currency = customer.currency
  const shows = numberShows(new Map(s.numbers.map((n) => [n.id, n])), options.length)
  const name = invoice.invoiceMessage
  const format = billFormatOf(customer)
  const section = (page: BillPage) => {
    const build = (part: InvoiceSources) => sectionOf[page](part, shows, currency)
    return format.groupBy ? groupedSection(page, format.groupBy, s, shows, currency, build) : build(s)
  }
  return {
    style: billStyles.includes(customer.billStyle as BillStyle) ? (customer.billStyle as BillStyle) : 'Standard',
    orientation: format.orientation,
    heading: 'Invoice',
    title: `Invoice ${invoice.invoiceNumber ?? invoice.id}`,
    seller: sellerBlockOf(options.presets.seller),
    billTo: billToOf(customer),
    details: detailsOf(invoice, customer),
    totals: totalsOf(invoice, currency),
    vatByRate: vatByRateOf(s, currency),
    message: name ? (options.presets.invoiceMessages[name] ?? name) : null,
    sections: pagesOf(customer, options.length).map(section),
    notices: invoice.status === 'Paid' ? ['Paid – thank you'] : invoice.status === 'Overdue' ? ['Overdue – please pay now'] : [],
  }
}

/** `billToName`, else the company, else title, first names and last name; then department, address and postcode. */
export function billToOf(c: Customer): string[] {
  const person = [c.title, c.firstnames, c.lastname].filter(Boolean).join(' ')
  const lines = [c.billToName || c.companyName || person, c.billToDepartment, c.address1, c.address2, c.address3, c.address4, c.address5, c.postcode]
  return lines.filter((l): l is string => !!l && l.trim() !== '')
}

function detailsOf(invoice: Invoice, c: Customer): DocumentDetail[] {
  const details: [string, string | null][] = [
    ['Invoice number', invoice.invoiceNumber ?? invoice.id],
    ['Invoice date', displayDate(invoice.invoiceDate)],
    ['Due date', displayDate(invoice.dueDate)],
    ['Account number', c.accountNumber],
    ['Your reference', c.customerReference],
    ['Purchase order', c.purchaseOrderNumber],
    ['Your VAT number', c.customerVATNumber],
  ]
  return details.flatMap(([label, value]) => (value ? [{ label, value }] : []))
}

function totalsOf(invoice: Invoice, currency: string | null): DocumentTable {
  const row = (key: keyof Invoice, label: string, amount: Money | null) => ({ key, cells: [label, displayMoney(amount ?? ZERO, currency)] })
  return {
    caption: null,
    columns: [
      { label: '', align: 'left', width: 3 },
      { label: '', align: 'right', width: 2 },
    ],
    rows: [row('netAmount', 'Net', invoice.netAmount), row('VATAmount', 'VAT', invoice.VATAmount), row('totalAmount', 'Total', invoice.totalAmount), row('amountPaid', 'Paid', invoice.amountPaid)],
    footer: row('amountOutstanding', 'Amount due', invoice.amountOutstanding),
  }
}

/** Net and VAT of the invoice's lines by their VAT rate; a line without a rate carries no VAT. */
function vatByRateOf(s: InvoiceSources, currency: string | null): DocumentTable {
  const rates = new Map<string, { net: Money; vat: Money }>()
  for (const t of s.transactions) {
    const rate = t.VATRate ?? 'No VAT'
    const r = rates.get(rate) ?? { net: ZERO, vat: ZERO }
    rates.set(rate, { net: add(r.net, t.amount ?? ZERO), vat: add(r.vat, t.VATAmount ?? ZERO) })
  }
  const money = (m: Money) => displayMoney(m, currency)
  return {
    caption: null,
    columns: [
      { label: 'VAT rate', align: 'left', width: 3 },
      { label: 'Net', align: 'right', width: 2 },
      { label: 'VAT', align: 'right', width: 2 },
    ],
    rows: [...rates.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([rate, r]) => ({ cells: [rate, money(r.net), money(r.vat)], key: 'vat-rate' })),
    footer: { cells: ['Total', money(s.invoice.netAmount ?? ZERO), money(s.invoice.VATAmount ?? ZERO)], key: 'vat-total' },
  }
}
