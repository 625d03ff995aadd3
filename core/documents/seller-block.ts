import type { Seller } from '../presets/seller.js'
import type { DocumentDetail } from './document-model.js'

/**
 * Who issues a document, as every invoice and credit note prints it above the bill-to block
 * (contract 14.1: what a VAT invoice must name). A document model carries one; both renderers
 * draw it with their own seller piece, so a credit note's model need only carry one too.
 */
export interface SellerBlock {
  readonly name: string
  /** Address lines, then postcode and country. */
  readonly address: readonly string[]
  /** VAT registration and company numbers, email and phone, as label and value. */
  readonly facts: readonly DocumentDetail[]
  /** How to pay (bank details), printed below the totals; null when the seller gives none. */
  readonly paymentDetails: string | null
}

/** The presets' seller as a document shows it; empty parts are left out. */
export function sellerBlockOf(seller: Seller): SellerBlock {
  const facts: [string, string | null][] = [
    ['VAT reg. no.', seller.VATNumber],
    ['Company no.', seller.companyNumber],
    ['Email', seller.email],
    ['Phone', seller.phone],
  ]
  return {
    name: seller.name,
    address: [...seller.address, seller.postcode, seller.country].filter((l): l is string => !!l && l.trim() !== ''),
    facts: facts.flatMap(([label, value]) => (value ? [{ label, value }] : [])),
    paymentDetails: seller.paymentDetails?.trim() || null,
  }
}
