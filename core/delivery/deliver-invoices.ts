import { toStamp, type Stamp } from '../dates/stamp.js'
import { customerCopy } from '../documents/customer-copy.js'
import { buildInvoiceDocument } from '../documents/invoice-document.js'
import type { InvoiceDocument } from '../documents/document-model.js'
import { readInvoiceSources, type InvoiceSources } from '../documents/invoice-sources.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import type { PlatformContext } from '../platform.js'
import type { ClaimedDelivery } from '../ports/invoice-outbox.js'
import type { InvoiceMailer, MailMessage } from '../ports/invoice-mailer.js'
import type { BillType } from '../presets/delivery-lists.js'
import { itemisedCallsCsv } from './calls-csv.js'
import { emailAttachmentsOf, usageReportProfileOf, type EmailAttachment } from './email-attachments.js'
import { invoiceEmailText } from './invoice-email.js'
import { usageSummaryCsv } from './usage-summary-csv.js'
import { dunningEmailText } from './dunning-email.js'
import { emailBillTypeOf } from './plan-deliveries.js'

/**
 * A delivery is retried for this long after its first attempt, then `Failed` (contract 14.2):
 * counted from the first attempt, not its recording, so one first tried late (the worker or the
 * mail server down for a day) still gets its retries.
 */
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000
/** The first retry waits a minute, each next one twice as long, at most an hour. */
export function retryAfterMs(attempts: number): number {
  return Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, attempts - 1))
}

/** What sending needs besides the platform: the mailer and the PDF renderer (adapters). */
export interface InvoiceSending {
  readonly mailer: InvoiceMailer
  readonly renderPdf: (doc: InvoiceDocument) => Promise<Uint8Array>
}

export interface SendOptions {
  /**
   * A claimed delivery stays with this worker this long (default 30 minutes): longer than a
   * batch takes even when the server hangs (each message gives up after the mailer's timeouts).
   */
  readonly leaseMs?: number
  readonly batch?: number
  readonly signal?: AbortSignal
}

type Ctx = Pick<PlatformContext, 'store' | 'clock' | 'presets' | 'resources'>

const ms = (stamp: Stamp): number => Date.parse(stamp)

/** A message the server accepted: its ID and the bill type it went as. */
type Accepted = { readonly messageID: string; readonly billType?: BillType }
/** What became of a delivery sent: accepted by the server; or nothing to send. */
type Sending = Accepted | 'not needed'

const messageOf = (error: unknown): string => ((error as Error)?.message ?? String(error)).slice(0, 500)

/**
 * One pass of the `invoice-delivery` job: claims the due deliveries a batch at a time and sends
 * them. A claim counts the attempt and keeps the delivery from other workers (so two workers
 * never send one at once); it is marked `Sent` after the server accepted it, so a worker killed
 * in between sends it again after the claim lapses: twice at worst, never lost. One whose
 * recording failed after the server accepted it is recorded on a later try, not sent again
 * (`keepAccepted`). A `Sent` delivery is never claimed again.
 */
export async function deliverInvoices(ctx: Ctx, sending: InvoiceSending, options: SendOptions = {}): Promise<{ sent: number; failed: number; retrying: number; skipped: number }> {
  const outcome = { sent: 0, failed: 0, retrying: 0, skipped: 0 }
  const leaseMs = options.leaseMs ?? 30 * 60_000
  for (;;) {
    if (options.signal?.aborted) return outcome
    const now = ctx.clock.now()
    const claimed = await ctx.store.transaction((s) => s.invoiceOutbox.claim(now, toStamp(ms(now) + leaseMs), options.batch ?? 10))
    if (claimed.length === 0) return outcome
    for (const [i, delivery] of claimed.entries()) {
      if (options.signal?.aborted) {
        // Stopping: the rest go back now rather than wait out their claim.
        await ctx.store.transaction((s) => s.invoiceOutbox.release(claimed.slice(i).map((d) => d.id), ctx.clock.now()))
        return outcome
      }
      let accepted: Accepted
      try {
        const result: Sending = delivery.acceptedMessageID !== null ? { messageID: delivery.acceptedMessageID } : delivery.channel === 'post' ? { messageID: 'print file' } : await sendEmail(ctx, sending, delivery)
        if (result === 'not needed') {
          await ctx.store.transaction((s) => s.invoiceOutbox.skipped(delivery.id, ctx.clock.now()))
          outcome.skipped++
          continue
        }
        accepted = result
      } catch (error) {
        const at = ctx.clock.now()
        const gaveUp = ms(at) - ms(delivery.firstAttemptStamp) >= RETRY_FOR_MS
        await ctx.store.transaction(async (s) => {
          await s.invoiceOutbox.attemptFailed(delivery.id, messageOf(error), at, gaveUp ? null : toStamp(ms(at) + retryAfterMs(delivery.attempts)))
          if (gaveUp) await s.changes.appendEventsOf('invoice.delivery_failed', ctx.resources.get('invoices')!, { id: [delivery.invoiceID] }, at)
        })
        if (gaveUp) outcome.failed++
        else outcome.retrying++
        continue
      }
      // Accepted by the server: from here a failure is the recording's, never the sending's.
      try {
        await recordSent(ctx, delivery, accepted)
        outcome.sent++
      } catch (error) {
        await keepAccepted(ctx, delivery, accepted, error)
        outcome.retrying++
      }
    }
  }
}

/**
 * The delivery's email: the invoice document and usage reports as its bill type and usage report
 * profile say, from the seller. Consent is read again now: withdrawn since the invoice was raised,
 * the calls come off as they would have then (contract 14.2: no itemisation without consent).
 * The profile is read now too (the customer's, or for a contact's copy the contact's own, else
 * the customer's): the delivery keeps its contact, so no column fixes it at planning.
 */
async function sendEmail(ctx: Ctx, sending: InvoiceSending, delivery: ClaimedDelivery): Promise<Sending> {
  if (!delivery.recipient) throw new Error('no recipient address')
  if (delivery.purpose !== 'invoice') return sendDunningEmail(ctx, sending, delivery, delivery.purpose)
  const sources = await readInvoiceSources(ctx.store, delivery.invoiceID)
  const { seller } = ctx.presets
  const billType = emailBillTypeOf(delivery.billType, sources.customer.GDPRPECRConsentGiven)
  const contact = delivery.contactID ? await ctx.store.contacts.get(delivery.contactID) : null
  const attached = emailAttachmentsOf(billType, usageReportProfileOf(sources.customer.invoiceUsageReportCustomerProfile, contact?.invoiceUsageReportCustomerProfile))
  const { subject, text } = invoiceEmailText(seller, sources.invoice, sources.customer, billType, attached)
  const name = `invoice-${sources.invoice.invoiceNumber ?? sources.invoice.id}`
  const attachments: MailMessage['attachments'][number][] = []
  for (const kind of attached) attachments.push(await attachment(ctx, sending, sources, name, kind))
  const { messageID } = await sending.mailer.send({ from: seller.email ?? 'billing@example.com', to: delivery.recipient, subject, text, attachments })
  return { messageID, billType }
}

/** One attachment's file: the customer's copy of the document, or a usage report of its calls. */
async function attachment(ctx: Ctx, sending: InvoiceSending, sources: InvoiceSources, name: string, kind: EmailAttachment): Promise<MailMessage['attachments'][number]> {
  const csv = 'text/csv; charset=utf-8'
  switch (kind) {
    case 'pdf': {
      const doc = customerCopy(buildInvoiceDocument(sources, { length: 'long', presets: ctx.presets }), sources.customer)
      return { filename: `${name}.pdf`, contentType: 'application/pdf', content: await sending.renderPdf(doc) }
    }
    case 'itemised':
      return { filename: `${name}-calls.csv`, contentType: csv, content: itemisedCallsCsv(sources) }
    case 'summary':
      return { filename: `${name}-calls-summary.csv`, contentType: csv, content: usageSummaryCsv(sources) }
  }
}

/**
 * A reminder or final notice (contract 15.2), listing the customer's invoices overdue when it is
 * sent; none once nothing is overdue (paid since the step was taken): a notice of nothing owed
 * would only confuse.
 */
async function sendDunningEmail(ctx: Ctx, sending: InvoiceSending, delivery: ClaimedDelivery, kind: 'reminder' | 'finalNotice'): Promise<Sending> {
  const customer = await ctx.store.repository('customers').get(delivery.customerID)
  if (!customer) throw new Error(`customer ${delivery.customerID} is gone`)
  const overdue = await ctx.store.repository('invoices').list({
    where: [
      { op: 'eq', column: 'customerID', value: customer.id },
      { op: 'eq', column: 'status', value: 'Overdue' },
    ],
    limit: 1000,
  })
  if (overdue.length === 0) return 'not needed'
  const { subject, text } = dunningEmailText(ctx.presets.seller, kind, customer, overdue)
  return sending.mailer.send({ from: ctx.presets.seller.email ?? 'billing@example.com', to: delivery.recipient!, subject, text, attachments: [] })
}

/**
 * Marks a delivery sent with its invoice's first `sentDate`, the `invoice.sent` event and the
 * customer's credit alerts (an invoice sent no longer counts as unsent), in one transaction.
 */
async function recordSent(ctx: Ctx, delivery: ClaimedDelivery, sent: Accepted): Promise<void> {
  const now = ctx.clock.now()
  await ctx.store.transaction(async (s) => {
    if (!(await s.invoiceOutbox.sent(delivery.id, now, sent.messageID, sent.billType))) return
    // A reminder is not the invoice: the invoice's own sending is what `sentDate` and `invoice.sent` record.
    if (delivery.purpose !== 'invoice') return
    const first = await s.invoiceOutbox.markInvoiceSent(delivery.invoiceID, ctx.clock.today())
    await s.changes.appendEventsOf('invoice.sent', ctx.resources.get('invoices')!, { id: [delivery.invoiceID] }, now)
    if (first) await refreshCreditAlerts(s, [delivery.customerID], now, { act: ctx })
  })
}

/**
 * Recording a message the server accepted failed (a deadlock, a busy database): not a failed
 * sending, so no attempt is counted and it is never `Failed`. The message ID alone is kept on the
 * delivery, which stays claimed until its next try, and that try records it without sending
 * (contract 14.2: a delivery is never lost, and sent twice at worst). When even that cannot be
 * kept, the claim lapses and the message goes once more, as after a worker killed here.
 */
async function keepAccepted(ctx: Ctx, delivery: ClaimedDelivery, sent: Accepted, error: unknown): Promise<void> {
  const at = ctx.clock.now()
  const note = messageOf(`accepted as ${sent.messageID}, not recorded yet: ${messageOf(error)}`)
  try {
    await ctx.store.transaction((s) => s.invoiceOutbox.accepted(delivery.id, at, sent.messageID, sent.billType, note, toStamp(ms(at) + retryAfterMs(delivery.attempts))))
  } catch {
    // Nothing more to do: see above.
  }
}
