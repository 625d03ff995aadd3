import { ZERO } from '../money/money.js'
import { sumOf } from './charge-sections.js'
import { displayDate, displayMoney } from './display.js'
import type { DocumentSection } from './document-model.js'
import type { InvoiceSources } from './invoice-sources.js'

/** The payments and credits allocated to the invoice (contract 10.3, 10.5), in allocation order. */
export function paymentsSection(s: InvoiceSources, currency: string | null): DocumentSection {
  const rows = s.payments.map(({ line, transaction }) => {
    const type = transaction?.transactionType ?? 'Payment'
    const what = transaction
      ? [type, transaction.description && transaction.description !== type ? transaction.description : null].filter(Boolean).join(' – ')
      : `Credit from invoice ${line.creditInvoiceID}`
    return { cells: [displayDate(line.date), what, displayMoney(line.amount ?? ZERO, currency)], key: 'payment' }
  })
  const table = {
    caption: null,
    columns: [
      { label: 'Date', align: 'left', width: 2 },
      { label: 'Description', align: 'left', width: 5.5 },
      { label: 'Amount', align: 'right', width: 2 },
    ] as const,
    rows,
    footer: { cells: ['Total paid', '', displayMoney(sumOf(s.payments.map((p) => p.line.amount)), currency)] },
  }
  return { page: 'Payments', title: 'Payments', tables: rows.length ? [table] : [], note: rows.length ? null : 'No payments have been allocated to this invoice yet.' }
}
