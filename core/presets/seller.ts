import * as v from 'valibot'

/**
 * Who issues the invoices (contract 14.1): what a VAT invoice must name besides the customer.
 * Every invoice (and later credit note) document prints it above the bill-to block, and the
 * invoice emails come from its `email`.
 */
export interface Seller {
  readonly name: string
  /** Address lines, first to last. */
  readonly address: readonly string[]
  readonly postcode: string | null
  readonly country: string | null
  readonly VATNumber: string | null
  readonly companyNumber: string | null
  readonly email: string | null
  readonly phone: string | null
  /** How to pay, as the documents print it (bank details); may run over several lines. */
  readonly paymentDetails: string | null
}

/**
 * The shipped seller: an obviously fictitious company (example.com, a Companies House number of
 * noughts), so a platform that has not named its own never sends a plausible invoice.
 */
export const defaultSeller: Seller = {
  name: 'Example Telecom Ltd',
  address: ['1 Sample Street', 'Exampletown'],
  postcode: 'EX1 1AA',
  country: 'United Kingdom',
  VATNumber: 'GB000000000',
  companyNumber: '00000000',
  email: 'billing@example.com',
  phone: '0000 000 0000',
  paymentDetails: 'Sort code 00-00-00, account 00000000 (sample: not a real account)',
}

const line = v.pipe(v.string(), v.trim(), v.maxLength(200))
const optionalLine = v.optional(v.nullable(line), null)

/** The presets file's `seller` (a `seller` without `name` stops the start: the documents need one). */
export const SellerFile = v.strictObject({
  name: v.pipe(v.string('the seller needs a name (printed on every invoice)'), v.trim(), v.minLength(1, 'the seller needs a name (printed on every invoice)'), v.maxLength(200)),
  address: v.optional(v.array(line), []),
  postcode: optionalLine,
  country: optionalLine,
  VATNumber: optionalLine,
  companyNumber: optionalLine,
  email: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.email('the seller email must be an email address'))), null),
  phone: optionalLine,
  paymentDetails: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2000))), null),
})
