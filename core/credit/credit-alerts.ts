import type { Stamp } from '../dates/stamp.js'
import type { Money } from '../money/money.js'
import { creditAlertNames, type CreditAlertName } from '../presets/engine-lists.js'
import type { Store } from '../ports/store.js'

/** What a customer's credit alerts are measured on (contract 10.6), with its limits (null: none). */
export interface CreditFigures {
  readonly creditLimit: Money | null
  readonly creditLimitCalls: Money | null
  readonly creditLimitOverdue: Money | null
  readonly creditLimitUnsent: Money | null
  /** Sum of amount + VAT of all its transactions. */
  readonly balance: Money
  /** Unapproved `Call Charges` and rated calls not yet billed. */
  readonly unbilledCalls: Money
  readonly overdueAmount: Money
  /** Total of its invoices not sent yet (no `sentDate`; contract 14.2), suppressed ones aside. */
  readonly unsent: Money
  /** Its numbers with a `creditLimit`, each with its unbilled call charges. */
  readonly numbers: readonly { readonly creditLimit: Money; readonly unbilledCalls: Money }[]
  /** The alerts stored now. */
  readonly stored: readonly string[]
}

const above = (value: Money, limit: Money | null) => limit !== null && value > limit

/** The limits exceeded now, in the contract's order. */
export function creditAlertsOf(f: CreditFigures): CreditAlertName[] {
  const exceeded: Record<CreditAlertName, boolean> = {
    creditLimit: above(f.balance, f.creditLimit),
    creditLimitCalls: above(f.unbilledCalls, f.creditLimitCalls),
    creditLimitOverdue: above(f.overdueAmount, f.creditLimitOverdue),
    creditLimitUnsent: above(f.unsent, f.creditLimitUnsent),
    numberCreditLimit: f.numbers.some((n) => above(n.unbilledCalls, n.creditLimit)),
  }
  return creditAlertNames.filter((name) => exceeded[name])
}

const utf8 = new TextDecoder()

/**
 * Brings the customers' `creditAlerts` up to date after a write that can change them
 * (transactions, usage imports, billing runs, payments, limits changed): only those that changed
 * are written, and each customer with an alert it did not have before gets a `customer.credit_alert`
 * event. Returns those customers. With `candidates`,
 * the caller has already left out customers without any limit or alert.
 */
export async function refreshCreditAlerts(store: Store, customerIDs: readonly string[], now: Stamp, options: { readonly candidates?: boolean } = {}): Promise<string[]> {
  // A customer with no limit anywhere and no alert stored keeps none: not measured.
  const ids = options.candidates ? customerIDs : await store.creditControl.withCreditLimits(customerIDs)
  if (ids.length === 0) return []
  const figures = await store.creditControl.creditFigures(ids)
  const raised: string[] = []
  for (const [id, f] of figures) {
    const alerts = creditAlertsOf(f)
    if (alerts.length === f.stored.length && alerts.every((a, i) => a === f.stored[i])) continue
    await store.creditControl.setCreditAlerts(id, alerts)
    if (alerts.some((a) => !f.stored.includes(a))) raised.push(id)
  }
  // An alert that appears is announced (contract 10.6), with the customer as it now reads.
  // A run's batch may raise hundreds: read a chunk of customers a query, not one each.
  for (let i = 0; i < raised.length; i += 500) {
    const ids = raised.slice(i, i + 500)
    const rows = await store.listJson.list('customers', { where: [{ op: 'in', column: 'id', values: ids }], limit: ids.length })
    await store.changes.append([], rows.map((row) => ({ type: 'customer.credit_alert', data: utf8.decode(row.json), createdStamp: now })))
  }
  return raised
}

/** The customer fields that say whether a customer can have an alert at all (besides its numbers' limits). */
export type CreditLimitsCustomer = {
  readonly creditLimit: Money | null
  readonly creditLimitCalls: Money | null
  readonly creditLimitOverdue: Money | null
  readonly creditLimitUnsent: Money | null
  readonly creditAlerts: readonly string[] | null
}

export const hasCreditLimits = (c: CreditLimitsCustomer): boolean =>
  c.creditLimit !== null || c.creditLimitCalls !== null || c.creditLimitOverdue !== null || c.creditLimitUnsent !== null || (c.creditAlerts?.length ?? 0) > 0
