import type { CreditFigures } from '../credit/credit-alerts.js'
import type { Stamp } from '../dates/stamp.js'

/** What credit control reads and writes (contract 10.6): the figures limits measure, and the alerts. */
export interface CreditControl {
  /** What each customer's credit alerts are measured on; invoices created since `unsentSince` are unsent. */
  creditFigures(customerIDs: readonly string[]): Promise<Map<string, CreditFigures>>
  setCreditAlerts(customerID: string, alerts: readonly string[]): Promise<void>
  /**
   * Of the customers, those whose alerts could be anything but none: a credit limit of their own
   * or on one of their numbers, or an alert stored now. The others need no refresh.
   */
  withCreditLimits(customerIDs: readonly string[]): Promise<string[]>
  /** Of the customers, those with a number that has a `creditLimit`. */
  withNumberCreditLimits(customerIDs: readonly string[]): Promise<string[]>
  /** The customers with IDs from `firstCustomerID` to `lastCustomerID` that have a number with a `creditLimit` (a billing run's step). */
  withNumberCreditLimitsBetween(firstCustomerID: string, lastCustomerID: string): Promise<string[]>
  /** Whether any number has a `creditLimit` (a run reads them per batch only then). */
  anyNumberCreditLimits(): Promise<boolean>
}
