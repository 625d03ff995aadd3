/** The shipped `invoiceNumberFormat` (contract 14.1): INV-000001, INV-000002, ... */
export const DEFAULT_INVOICE_NUMBER_FORMAT = 'INV-{seq:6}'

/** `{yyyy}`, `{mm}`, `{seq}` or `{seq:N}` (core/numbering writes them). */
export const INVOICE_NUMBER_PLACEHOLDER = /\{(yyyy|mm|seq(?::(\d{1,2}))?)\}/g

/**
 * Checks an `invoiceNumberFormat`: it must hold `{seq}` (or `{seq:N}`, zero-padded to N digits)
 * once, since the sequence alone makes a number unique, and no placeholder but `{yyyy}`, `{mm}`
 * and `{seq...}`. Answers the problem, or null.
 */
export function invoiceNumberFormatProblem(format: string): string | null {
  const seqs = [...format.matchAll(INVOICE_NUMBER_PLACEHOLDER)].filter((m) => m[1].startsWith('seq'))
  if (seqs.length !== 1) return `invoiceNumberFormat must hold {seq} or {seq:N} exactly once (got "${format}")`
  const stray = format.replace(INVOICE_NUMBER_PLACEHOLDER, '').match(/\{[^}]*\}/)
  if (stray) return `invoiceNumberFormat has an unknown placeholder ${stray[0]} (known: {yyyy}, {mm}, {seq:N})`
  return null
}
