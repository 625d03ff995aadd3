import type { Customer, Invoice } from '../fields/entity.js'
import { displayDate, displayMoney } from '../documents/display.js'
import { ZERO } from '../money/money.js'
import type { Seller } from '../presets/seller.js'
import type { BillType } from '../presets/delivery-lists.js'

/** What an email of a bill type attaches (contract 14.2). */
export const attachmentsOf: Readonly<Record<BillType, readonly ('pdf' | 'csv')[]>> = {
  PDF: ['pdf'],
  'PDF + CSV': ['pdf', 'csv'],
  CSV: ['csv'],
  'Summary Only': [],
  None: [],
}

/**
 * The subject and text of an invoice email: the seller, the invoice number, the total, the due
 * date and the amount outstanding; `Summary Only` also gives net and VAT, since nothing is attached.
 */
export function invoiceEmailText(seller: Seller, invoice: Invoice, customer: Pick<Customer, 'currency' | 'accountNumber'>, billType: BillType): { subject: string; text: string } {
  const money = (m: typeof invoice.totalAmount) => displayMoney(m ?? ZERO, customer.currency)
  const number = invoice.invoiceNumber ?? invoice.id
  const subject = `${seller.name}: invoice ${number} for ${money(invoice.totalAmount)}, due ${displayDate(invoice.dueDate)}`
  const attached = attachmentsOf[billType]
  const lines = [
    `Invoice ${number} from ${seller.name}`,
    '',
    `Account: ${customer.accountNumber ?? ''}`,
    `Invoice date: ${displayDate(invoice.invoiceDate)}`,
    ...(billType === 'Summary Only' ? [`Net: ${money(invoice.netAmount)}`, `VAT: ${money(invoice.VATAmount)}`] : []),
    `Total: ${money(invoice.totalAmount)}`,
    `Due date: ${displayDate(invoice.dueDate)}`,
    `Amount outstanding: ${money(invoice.amountOutstanding)}`,
    '',
    attached.length ? `Attached: ${attached.map((a) => (a === 'pdf' ? 'the invoice (PDF)' : 'the itemised calls (CSV)')).join(' and ')}.` : 'This is a summary; ask us for the full invoice.',
    ...(seller.paymentDetails ? ['', `How to pay: ${seller.paymentDetails}`] : []),
    '',
    [seller.name, ...seller.address, seller.postcode, seller.country].filter(Boolean).join(', '),
    [seller.VATNumber ? `VAT reg. no. ${seller.VATNumber}` : null, seller.companyNumber ? `Company no. ${seller.companyNumber}` : null, seller.phone].filter(Boolean).join(' · '),
  ]
  return { subject, text: `${lines.join('\n').trim()}\n` }
}
