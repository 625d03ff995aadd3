import { notFound } from '../errors.js'
import { buildInvoiceDocument } from '../documents/invoice-document.js'
import { customerCopy } from '../documents/customer-copy.js'
import type { InvoiceDocument } from '../documents/document-model.js'
import { readInvoiceSources } from '../documents/invoice-sources.js'
import type { PlatformContext } from '../platform.js'
import { billTypes } from '../presets/delivery-lists.js'

/**
 * The documents of a billing run's print file (contract 14.2): every invoice of the run whose
 * customer has a `postBillType` other than `None`, in account number order (then invoice ID).
 * Suppressed invoices are not sent, by post either; nor are drafts. A posted invoice is the
 * customer's copy: without GDPR/PECR consent, no itemised calls (`customerCopy`), as by email.
 * Every sheet is portrait, whatever the customer's `billFormatOverride`, for the window envelope.
 */
export async function readPrintFile(ctx: Pick<PlatformContext, 'store' | 'presets'>, runID: string): Promise<InvoiceDocument[]> {
  const { store } = ctx
  if (!(await store.repository('billingRuns').get(runID))) throw notFound('billing run', runID)
  // A draft of a run in review (contract 16.1) is not the customer's until approved: not posted either.
  const invoices = (await store.repository('invoices').listIn('billingRunID', [runID])).filter((i) => !i.suppressed && i.status !== 'Draft')
  const customers = invoices.length ? await store.repository('customers').listIn('id', [...new Set(invoices.map((i) => i.customerID!))], [], { storedOnly: true }) : []
  const posted = new Map(customers.filter((c) => billTypes.includes(c.postBillType as never) && c.postBillType !== 'None').map((c) => [c.id, c]))
  const order = invoices
    .filter((i) => posted.has(i.customerID!))
    .sort((a, b) => compare(posted.get(a.customerID!)!.accountNumber ?? '', posted.get(b.customerID!)!.accountNumber ?? '') || Number(a.id) - Number(b.id))
  const docs: InvoiceDocument[] = []
  for (const invoice of order) {
    const doc = customerCopy(buildInvoiceDocument(await readInvoiceSources(store, invoice.id), { length: 'long', presets: ctx.presets }), posted.get(invoice.customerID!)!)
    // Folded into a window envelope, a sheet is portrait: a Landscape override turns only the copies sent by email and shown in the portal.
    docs.push({ ...doc, orientation: 'portrait' })
  }
  return docs
}

/** Plain character order: the same on every machine, whatever its locale. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
