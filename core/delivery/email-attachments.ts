import type { BillType } from '../presets/delivery-lists.js'

/** What an invoice email can attach: the invoice's PDF and the usage reports, the itemised calls and their summary (both CSV). */
export type EmailAttachment = 'pdf' | 'itemised' | 'summary'
type UsageReport = Exclude<EmailAttachment, 'pdf'>

/** What an email of a bill type attaches (contract 14.2); its `csv` part is the usage reports of the profile. */
export const attachmentsOf: Readonly<Record<BillType, readonly ('pdf' | 'csv')[]>> = {
  PDF: ['pdf'],
  'PDF + CSV': ['pdf', 'csv'],
  CSV: ['csv'],
  'Summary Only': [],
  None: [],
}

/** The usage reports of the profile names the code knows (presets `usageReportProfiles`, as shipped). */
const reportsOf: Readonly<Record<string, readonly UsageReport[]>> = {
  None: [],
  Summary: ['summary'],
  Itemised: ['itemised'],
  'Itemised + Summary': ['itemised', 'summary'],
}

/**
 * The usage report profile an email follows (`invoiceUsageReportCustomerProfile`): a contact's
 * copy its own, else the customer's; the customer's email (and a resend) the customer's.
 */
export function usageReportProfileOf(customer: string | null | undefined, contact?: string | null): string | null {
  return contact || customer || null
}

/**
 * The usage reports a profile attaches. Unset, or a name an operator added to the preset list
 * that the code does not know, is `Itemised`: the calls CSV as it always was.
 */
export function usageReportsOf(profile: string | null | undefined): readonly UsageReport[] {
  return profile && Object.hasOwn(reportsOf, profile) ? reportsOf[profile] : ['itemised']
}

/**
 * What an invoice email attaches. The bill type decides whether a CSV goes (`PDF + CSV` and
 * `CSV` only; without GDPR/PECR consent the bill type has already lost it, see
 * `emailBillTypeOf`); the usage report profile decides which usage reports that CSV is: the
 * itemised calls, their summary, both, or none (`None`: even a `CSV` bill type then attaches
 * nothing, and the email says so).
 */
export function emailAttachmentsOf(billType: BillType, profile: string | null | undefined): readonly EmailAttachment[] {
  return attachmentsOf[billType].flatMap((kind): readonly EmailAttachment[] => (kind === 'pdf' ? ['pdf'] : usageReportsOf(profile)))
}
