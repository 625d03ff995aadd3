import type { SellerBlock } from '../../core/documents/seller-block.js'

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => escapes[c])

/** The seller block of an HTML document (invoice, credit note): above the bill-to block. */
export function sellerHtml(seller: SellerBlock): string {
  return [
    '<address class="seller">',
    `<strong>${esc(seller.name)}</strong>`,
    seller.address.length ? `<span>${esc(seller.address.join(', '))}</span>` : '',
    seller.facts.length ? `<span class="facts">${seller.facts.map((f) => `${esc(f.label)} <b>${esc(f.value)}</b>`).join(' · ')}</span>` : '',
    '</address>',
  ].join('')
}

/** How to pay, below a document's totals; nothing when the seller gives no payment details. */
export function paymentDetailsHtml(seller: SellerBlock): string {
  return seller.paymentDetails ? `<aside class="payment-details"><span class="label">How to pay</span> ${esc(seller.paymentDetails)}</aside>` : ''
}

/** The seller pieces' style rules, for the document's one style sheet. */
export const sellerCss = `
.seller{font-style:normal;display:flex;flex-direction:column;margin:0 0 14px;font-size:.92em;color:#3a4150}
.seller strong{color:#1a1a1a;font-size:1.08em}
.seller .facts b{color:#1a1a1a}
.payment-details{margin:0 0 16px;white-space:pre-line}
`.trim()
