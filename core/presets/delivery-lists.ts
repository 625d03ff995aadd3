/**
 * The names the sending of invoices branches on (contract 14.2). A presets file may leave a name
 * out of `billTypes` but not add one: the delivery would not know what to attach.
 */
export const billTypes = ['PDF', 'PDF + CSV', 'CSV', 'Summary Only', 'None'] as const
export type BillType = (typeof billTypes)[number]

/** How an invoice reaches a recipient: an email, the run's print file, or a fax (recorded, never sent). */
export const deliveryChannels = ['email', 'post', 'fax'] as const
export type DeliveryChannel = (typeof deliveryChannels)[number]

/** A delivery waits (or is retried), went out, gave up after its retries, or is not to be sent. */
export const invoiceDeliveryStatuses = ['Pending', 'Sent', 'Failed', 'Skipped'] as const
export type InvoiceDeliveryStatus = (typeof invoiceDeliveryStatuses)[number]

/** What a delivery carries: the invoice itself, or a dunning step's reminder or final notice about it (contract 15.2). */
export const deliveryPurposes = ['invoice', 'reminder', 'finalNotice'] as const
export type DeliveryPurpose = (typeof deliveryPurposes)[number]
