import type { Transaction } from '../fields/entity.js'
import { add, ZERO, type Money } from '../money/money.js'
import type { NumberShows } from './bill-pages.js'
import { displayMoney, displayPeriod } from './display.js'
import type { DocumentColumn, DocumentSection, DocumentTable } from './document-model.js'
import type { InvoiceSources } from './invoice-sources.js'

/** Where a transaction is shown: the calls pages, the Services page, or the Charges page. */
export type LineKind = 'calls' | 'services' | 'charges'

export const lineKindOf = (t: Pick<Transaction, 'transactionType' | 'serviceID'>): LineKind =>
  t.transactionType === 'Call Charges' ? 'calls' : t.serviceID ? 'services' : 'charges'

const lineColumns: readonly DocumentColumn[] = [
  { label: 'Description', align: 'left', width: 5 },
  { label: 'Period', align: 'left', width: 3.4 },
  { label: 'Amount', align: 'right', width: 1.6 },
]

/** Net of each kind, with VAT: the Summary page's table. */
export function summarySection(s: InvoiceSources, currency: string | null): DocumentSection {
  const kinds: [LineKind, string][] = [
    ['charges', 'Charges'],
    ['services', 'Services'],
    ['calls', 'Calls'],
  ]
  const money = (m: Money) => displayMoney(m, currency)
  const rows = kinds.flatMap(([kind, label]) => {
    const lines = s.transactions.filter((t) => lineKindOf(t) === kind)
    if (lines.length === 0) return []
    const net = sumOf(lines.map((t) => t.amount))
    const vat = sumOf(lines.map((t) => t.VATAmount))
    return [{ cells: [label, money(net), money(vat), money(add(net, vat))], key: kind }]
  })
  const { invoice } = s
  const table: DocumentTable = {
    caption: null,
    columns: [
      { label: '', align: 'left', width: 4 },
      { label: 'Net', align: 'right', width: 2 },
      { label: 'VAT', align: 'right', width: 2 },
      { label: 'Total', align: 'right', width: 2 },
    ],
    rows,
    footer: { cells: ['Total', money(invoice.netAmount ?? ZERO), money(invoice.VATAmount ?? ZERO), money(invoice.totalAmount ?? ZERO)], key: 'summary-total' },
  }
  return { page: 'Summary', title: 'Summary', tables: [table], note: rows.length ? null : 'Nothing was charged on this invoice.' }
}

/**
 * One-off and recurring lines (contract 10.5): `Charges` by number (lines of no number first, as
 * account charges), `Services` by service; each with its feature's description, else its type.
 */
export function chargeSection(s: InvoiceSources, kind: 'charges' | 'services', shows: NumberShows, currency: string | null): DocumentSection {
  const page = kind === 'charges' ? 'Charges' : 'Services'
  const features = new Map(s.features.map((f) => [f.id, f]))
  const groups = new Map<string, Transaction[]>()
  for (const t of s.transactions) {
    if (lineKindOf(t) !== kind || !shows(t.numberID, page)) continue
    const key = (kind === 'charges' ? t.numberID : t.serviceID) ?? ''
    const list = groups.get(key)
    if (list) list.push(t)
    else groups.set(key, [t])
  }
  const captionOf = kind === 'charges' ? numberCaptions(s) : serviceCaptions(s)
  const tables = [...groups.entries()]
    .map(([key, lines]) => ({ caption: captionOf(key), lines }))
    .sort((a, b) => (a.caption.order === b.caption.order ? a.caption.text.localeCompare(b.caption.text) : a.caption.order - b.caption.order))
    .map(({ caption, lines }): DocumentTable => ({
      caption: caption.text,
      columns: lineColumns,
      rows: lines
        .sort((a, b) => (a.transactionDate ?? '').localeCompare(b.transactionDate ?? '') || Number(a.id) - Number(b.id))
        .map((t) => {
          const feature = t.featureID ? features.get(t.featureID) : undefined
          const what = feature?.description ?? feature?.featureType ?? t.description ?? t.transactionType ?? ''
          return { cells: [what, displayPeriod(t.dateFrom ?? t.transactionDate, t.dateTo), displayMoney(t.amount ?? ZERO, currency)] }
        }),
      footer: { cells: ['Subtotal', '', displayMoney(sumOf(lines.map((t) => t.amount)), currency)] },
    }))
  return { page, title: page, tables, note: tables.length ? null : `No ${kind === 'charges' ? 'charges' : 'service charges'} on this invoice.` }
}

function numberCaptions(s: InvoiceSources) {
  const numbers = new Map(s.numbers.map((n) => [n.id, n]))
  return (key: string) => {
    if (!key) return { text: 'Account charges', order: 0 }
    const n = numbers.get(key)
    return { text: n ? [n.number, n.description].filter(Boolean).join(' – ') : `Number ${key}`, order: 1 }
  }
}

function serviceCaptions(s: InvoiceSources) {
  const services = new Map(s.services.map((x) => [x.id, x]))
  return (key: string) => {
    const x = services.get(key)
    return { text: (x && (x.serviceName ?? x.description ?? x.serviceType)) || `Service ${key}`, order: 0 }
  }
}

export const sumOf = (xs: readonly (Money | null)[]): Money => xs.reduce<Money>((t, x) => add(t, x ?? ZERO), ZERO)
