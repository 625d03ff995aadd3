import { INVOICE_NUMBER_PLACEHOLDER as PLACEHOLDER } from '../presets/invoice-number-format.js'
import type { DateOnly } from '../dates/date-only.js'

/**
 * The invoice number of the `seq`-th invoice raised, dated `invoiceDate`: `{yyyy}` and `{mm}`
 * from that date, `{seq:N}` the sequence zero-padded to N digits (longer when it outgrows them).
 */
export function formatInvoiceNumber(format: string, seq: bigint, invoiceDate: DateOnly): string {
  return format.replace(PLACEHOLDER, (_, name: string, width?: string) => {
    if (name === 'yyyy') return invoiceDate.slice(0, 4)
    if (name === 'mm') return invoiceDate.slice(5, 7)
    return String(seq).padStart(width ? Number(width) : 0, '0')
  })
}

/**
 * The sequence number a formatted invoice number carries, for a format whose other parts are
 * known (tests and the print file's order read it back); null when it does not match.
 */
export function sequenceOf(format: string, invoiceNumber: string): bigint | null {
  const escaped = format.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  const pattern = escaped.replace(/\\?\{(yyyy|mm|seq(?::\d{1,2})?)\\?\}/g, (_, name: string) => (name === 'yyyy' ? '\\d{4}' : name === 'mm' ? '\\d{2}' : '(\\d+)'))
  const m = new RegExp(`^${pattern}$`).exec(invoiceNumber)
  return m ? BigInt(m[1]) : null
}
