/** The event type prefix of each collection whose changes are announced (contract 12). */
export const eventSubjects = {
  customers: 'customer',
  numbers: 'number',
  services: 'service',
  features: 'feature',
  customerContacts: 'contact',
  tariffs: 'tariff',
  fixedFeeTariffs: 'fixed_fee_tariff',
  tariffDetails: 'tariff_detail',
  fixedFeeTariffDetails: 'fixed_fee_tariff_detail',
  transactions: 'transaction',
  billingRuns: 'billing_run',
  invoices: 'invoice',
  usageFiles: 'usage_file',
} as const

/** Past tense of the actions whose events the contract names (`customer.dropped`, `feature.charge_changed`). */
export const actionEventNames: Readonly<Record<string, string>> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  drop: 'dropped',
  reinstate: 'reinstated',
  suspend: 'suspended',
  unsuspend: 'unsuspended',
  makeNonBillable: 'made_non_billable',
  makeBillable: 'made_billable',
  finalBill: 'final_billed',
  changeRecurringCharge: 'charge_changed',
  writeOffDebt: 'debt_written_off',
  writeOffCredit: 'credit_written_off',
  addSharedContact: 'shared_contact_added',
  removeSharedContact: 'shared_contact_removed',
  generatePIN: 'pin_generated',
  linkToAccounting: 'linked_to_accounting',
  unlinkFromAccounting: 'unlinked_from_accounting',
  generatePaymentLinks: 'payment_links_generated',
  restoreCalls: 'calls_restored',
  applyIncrease: 'increase_applied',
  createIncreaseVersion: 'increase_version_created',
  convertToSharedContact: 'converted_to_shared_contact',
  scheduleDeletion: 'deletion_scheduled',
  annualIncrease: 'annual_increase_applied',
  resend: 'resend_queued',
}

/** Events the platform raises besides a change of an item through the API. */
const engineEvents = [
  'invoice.raised',
  'invoice.paid',
  'invoice.sent',
  'invoice.delivery_failed',
  'invoice.overdue',
  'billing_run.completed',
  'billing_run.failed',
  'customer.credit_alert',
  'customer.spend_alert',
  'usage_file.imported',
  'payment.received',
  'payment.failed',
  'mandate.changed',
  'credit_note.issued',
  'refund.created',
  'dunning.step_taken',
  'dunning.step_withheld',
  'customer.credit_limit_action_withheld',
  'customer.bar_requested',
  'number.bar_requested',
  'customer.topup_requested',
  'contract.ending',
] as const

/** Every event type, for a webhook's `eventTypes` ([] = all). */
export const eventTypes: readonly string[] = [
  ...new Set([
    ...Object.values(eventSubjects).flatMap((s) => Object.values(actionEventNames).map((a) => `${s}.${a}`)),
    ...engineEvents,
  ]),
].sort()

/** The event type of an action on an item of a collection, or null when the collection announces none. */
export function eventTypeOf(resource: string, action: string): string | null {
  const subject = (eventSubjects as Record<string, string>)[resource]
  if (!subject) return null
  return `${subject}.${actionEventNames[action] ?? action.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`
}

/** The states of a webhook delivery: waiting (or retrying, or waiting for its webhook to be active again), or delivered. */
export const deliveryStatuses = ['Pending', 'Delivered'] as const
