import type { Customer, Invoice } from '../fields/entity.js'
import { displayDate, displayMoney } from '../documents/display.js'
import { ZERO } from '../money/money.js'
import type { Seller } from '../presets/seller.js'
import type { BillType } from '../presets/delivery-lists.js'
import type { EmailAttachment } from './email-attachments.js'

const described: Readonly<Record<EmailAttachment, string>> = { pdf: 'the invoice (PDF)', itemised: 'the itemised calls (CSV)', summary: 'the calls summary (CSV)' }

/**
 * The subject and text of an invoice email: the seller, the invoice number, the total, the due
 * date and the amount outstanding, and what is `attached` (`emailAttachmentsOf`), as it is; with
 * nothing attached (`Summary Only`, or a usage report profile of `None` on a `CSV` bill type)
 * also net and VAT.
 */
export function invoiceEmailText(
  seller: Seller,
  invoice: Invoice,
  customer: Pick<Customer, 'currency' | 'accountNumber'>,
  billType: BillType,
  attached: readonly EmailAttachment[],
): { subject: string; text: string } {
  const money = (m: typeof invoice.totalAmount) => displayMoney(m ?? ZERO, customer.currency)
  const number = invoice.invoiceNumber ?? invoice.id
  const subject = `${seller.name}: invoice ${number} for ${money(invoice.totalAmount)}, due ${displayDate(invoice.dueDate)}`
  const lines = [
    `Invoice ${number} from ${seller.name}`,
    '',
    `Account: ${customer.accountNumber ?? ''}`,
    `Invoice date: ${displayDate(invoice.invoiceDate)}`,
    ...(attached.length === 0 ? [`Net: ${money(invoice.netAmount)}`, `VAT: ${money(invoice.VATAmount)}`] : []),
    `Total: ${money(invoice.totalAmount)}`,
    `Due date: ${displayDate(invoice.dueDate)}`,
    `Amount outstanding: ${money(invoice.amountOutstanding)}`,
    '',
    attached.length
      ? `Attached: ${listed(attached.map((a) => described[a]))}.`
      : billType === 'Summary Only'
        ? 'This is a summary; ask us for the full invoice.'
        : 'Nothing is attached; ask us for the full invoice or the calls.',
    ...(seller.paymentDetails ? ['', `How to pay: ${seller.paymentDetails}`] : []),
    '',
    [seller.name, ...seller.address, seller.postcode, seller.country].filter(Boolean).join(', '),
    [seller.VATNumber ? `VAT reg. no. ${seller.VATNumber}` : null, seller.companyNumber ? `Company no. ${seller.companyNumber}` : null, seller.phone].filter(Boolean).join(' · '),
  ]
  return { subject, text: `${lines.join('\n').trim()}\n` }
}

/** "a", "a and b", "a, b and c". */
const listed = (items: readonly string[]): string => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join(''))
