import type { Customer, Invoice } from '../fields/entity.js'
import { displayDate, displayMoney } from '../documents/display.js'
import { add, ZERO } from '../money/money.js'
import type { Seller } from '../presets/seller.js'

/**
 * A dunning step's email (contract 15.2): a reminder, or a final notice, naming the seller, the
 * account and every invoice still overdue with what is outstanding on each, and how to pay.
 */
export function dunningEmailText(
  seller: Seller,
  kind: 'reminder' | 'finalNotice',
  customer: Pick<Customer, 'currency' | 'accountNumber'>,
  overdue: readonly Pick<Invoice, 'id' | 'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'amountOutstanding'>[],
): { subject: string; text: string } {
  const money = (m: Invoice['amountOutstanding']) => displayMoney(m ?? ZERO, customer.currency)
  const total = overdue.reduce((s, i) => add(s, i.amountOutstanding ?? ZERO), ZERO)
  const what = kind === 'reminder' ? 'Payment reminder' : 'Final notice'
  const subject = `${seller.name}: ${what.toLowerCase()}, ${money(total)} overdue on account ${customer.accountNumber ?? ''}`.trim()
  const lines = [
    `${what} from ${seller.name}`,
    '',
    `Account: ${customer.accountNumber ?? ''}`,
    kind === 'reminder'
      ? 'Our records show these invoices are past due. If you have paid in the last few days, thank you, and please ignore this reminder.'
      : 'These invoices are still unpaid after our reminder. Please pay now: unpaid accounts may be suspended without further notice.',
    '',
    ...overdue.map((i) => `Invoice ${i.invoiceNumber ?? i.id} dated ${displayDate(i.invoiceDate)}, due ${displayDate(i.dueDate)}: ${money(i.amountOutstanding)} outstanding`),
    '',
    `Total overdue: ${money(total)}`,
    ...(seller.paymentDetails ? ['', `How to pay: ${seller.paymentDetails}`] : []),
    '',
    [seller.name, ...seller.address, seller.postcode, seller.country].filter(Boolean).join(', '),
  ]
  return { subject, text: `${lines.join('\n').trim()}\n` }
}
