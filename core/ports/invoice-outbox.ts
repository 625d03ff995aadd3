import type { Stamp } from '../dates/stamp.js'
import type { BillType, DeliveryChannel, DeliveryPurpose, InvoiceDeliveryStatus } from '../presets/delivery-lists.js'

/** A delivery to record: one recipient on one channel (contract 14.2). */
export interface NewDelivery {
  readonly invoiceID: string
  readonly customerID: string
  readonly contactID: string | null
  readonly channel: DeliveryChannel
  readonly recipient: string | null
  readonly billType: BillType
  readonly status: Extract<InvoiceDeliveryStatus, 'Pending' | 'Skipped'>
  /** A dunning step's reminder or final notice about the invoice (contract 15.2); absent: the invoice itself. */
  readonly purpose?: DeliveryPurpose
}

/** A contact with an email that may get copies of its customer's invoices or reminders (Copy Email Bill). */
export interface ContactCopy {
  readonly customerID: string
  readonly contactID: string
  readonly email: string
  readonly emailBillType: string | null
  /** Its `copyCorrespondenceTypeIDs`; empty when unset. */
  readonly correspondence: readonly string[]
}

/** A delivery a worker claimed to send; `attempts` counts this one. */
export interface ClaimedDelivery {
  readonly id: string
  readonly invoiceID: string
  readonly customerID: string
  /** The contact a copy goes to (its usage report profile is read when it is sent); null: the customer. */
  readonly contactID: string | null
  readonly channel: DeliveryChannel
  readonly recipient: string | null
  readonly billType: BillType
  readonly attempts: number
  readonly createdStamp: Stamp
  /** When it was first attempted (this claim, the first time): its retries last 24 hours from then. */
  readonly firstAttemptStamp: Stamp
  readonly purpose: DeliveryPurpose
  /**
   * The server's message ID when an earlier attempt was accepted but could not be recorded as
   * sent (`accepted`): this claim only records it, never sends it again. Null: not sent yet.
   */
  readonly acceptedMessageID: string | null
}

/**
 * The invoice deliveries outbox: recorded in the transaction that raises an invoice (or queues a
 * resend), claimed and sent by the `invoice-delivery` job.
 */
export interface InvoiceOutbox {
  /** The contacts (direct, and shared ones associated) of the customers with an email bill type and an email. */
  contactCopies(customerIDs: readonly string[]): Promise<ContactCopy[]>
  record(deliveries: readonly NewDelivery[], now: Stamp): Promise<void>
  /**
   * Takes up to `limit` pending deliveries due at `now`, oldest first, counting an attempt on
   * each (not on one already accepted, which is only to be recorded) and keeping them from every
   * other worker until `leaseUntil`: a worker killed while sending leaves them to be sent again
   * then, never lost.
   */
  claim(now: Stamp, leaseUntil: Stamp, limit: number): Promise<ClaimedDelivery[]>
  /** Gives claimed deliveries back unsent (a stopping worker): due again at once, the attempt uncounted. */
  release(ids: readonly string[], now: Stamp): Promise<void>
  /**
   * Marks a claimed delivery sent, as `billType` when given (what it carried, where consent
   * withdrawn since it was recorded took the calls off); false when it was not pending any more
   * (nothing changed).
   */
  sent(id: string, now: Stamp, messageID: string | null, billType?: BillType): Promise<boolean>
  /**
   * Keeps, on a claimed delivery still `Pending`, that the server accepted it as `messageID`
   * (and as `billType` when given) though recording it as sent failed: claimed again from
   * `nextAttempt`, it is recorded without being sent again. Counts no failed attempt.
   */
  accepted(id: string, now: Stamp, messageID: string, billType: BillType | undefined, error: string, nextAttempt: Stamp): Promise<void>
  /** Marks a claimed delivery `Skipped`: nothing to send any more (a notice once nothing is overdue). */
  skipped(id: string, now: Stamp): Promise<void>
  /** Records a failed attempt: tried again at `nextAttempt`, or, when null, given up (`Failed`). */
  attemptFailed(id: string, error: string, now: Stamp, nextAttempt: Stamp | null): Promise<void>
  /** Sets the invoice's `sentDate` unless it has one; true when it was set now. */
  markInvoiceSent(invoiceID: string, sentDate: string): Promise<boolean>
}
