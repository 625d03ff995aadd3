import { idField, stampFields } from './common.js'
import { currency, date, field, num, preset, stamp, text } from './field.js'
import { billingRunStatuses } from '../presets/engine-lists.js'
import { defineResource } from './resource.js'

/**
 * Billing runs (contract 9.5, 16.1): Pending → Requested → Running → Complete, or Failed; with
 * `review`, Running → Review → Approved → Complete, or Review → Discarded. Setting `status` to
 * Requested starts a run; its dates are locked from then on.
 */
export const billingRuns = defineResource({
  name: 'billingRuns',
  singular: 'billing run',
  table: 'billing_runs',
  fields: [
    idField,
    text('name'),
    preset('status', 'billingRunStatuses', {
      values: billingRunStatuses,
      description: 'Pending, Requested (to start it), Running, Review (drafts to approve), Approved (to finalise them), Complete, Discarded or Failed',
    }),
    // Contract 16.1: a run that stops at Review with draft invoices; fixed once the run is requested.
    field('review', 'boolean', { extension: true, description: 'true: the run drafts its invoices and stops at Review for approval' }),
    date('invoiceDate', { description: 'date printed on the invoices' }),
    date('cutoffDate', { description: 'recurring charges are billed up to this date, and calls unless transactionCutoffDate is earlier' }),
    date('transactionCutoffDate', { description: 'other transactions dated on or before it are invoiced (unset: the cutoffDate)' }),
    date('dueDate', { description: 'payment due date of the invoices' }),
    currency('invoiceAmount', { readOnly: true, description: 'total of the invoices raised' }),
    num('invoiceCount', { readOnly: true, description: 'number of invoices raised (so far, while Running)' }),
    stamp('commencedDate', { description: 'when the run started' }),
    stamp('completedDate', { description: 'when the run completed or failed' }),
    ...stampFields(),
    // The last customer fully billed, so a run resumed after a crash skips what is done.
    field('progressCustomerID', 'id', { internal: true, readOnly: true }),
    // The call mark the run bills below (core/billing/call-marks.ts), taken once its calls are rated.
    field('callMark', 'number', { internal: true, readOnly: true }),
    // The earliest start of a call it may bill (null: any): see run-call-mark.ts.
    field('callsSince', 'datetime', { internal: true, readOnly: true }),
    field('failureReason', 'text', { readOnly: true, extension: true, description: 'why a Failed run failed' }),
    // Progress (contract 13), written with each committed batch so any process reads it.
    num('customersTotal', { readOnly: true, extension: true, description: 'customers the run covers (known once it is Running)' }),
    num('customersDone', { readOnly: true, extension: true, description: 'customers billed so far' }),
    stamp('estimatedCompletion', { description: 'when a Running run is expected to complete, from its pace so far' }),
  ],
})
