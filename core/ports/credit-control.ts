import type { CreditFigures, SpendMeasure } from '../credit/credit-alerts.js'

/** What credit control reads and writes (contract 10.6): the figures limits measure, and the alerts. */
export interface CreditControl {
  /**
   * What each customer's credit alerts are measured on (unsent invoices: those with no `sentDate`).
   * unsent. The calls of `spend`'s month are summed only when it is given.
   */
  creditFigures(customerIDs: readonly string[], spend: SpendMeasure | null): Promise<Map<string, CreditFigures>>
  /** Stores the alerts, and with `spendAlertMonth` the month a spend alert was announced. */
  setCreditAlerts(customerID: string, alerts: readonly string[], spendAlertMonth?: string): Promise<void>
  /**
   * Of the customers, those whose alerts could be anything but none: a credit limit or expected
   * spend of their own or on one of their numbers, or an alert stored now. The others need no refresh.
   */
  withCreditLimits(customerIDs: readonly string[]): Promise<string[]>
  /** Of the customers, those with a number that has a `creditLimit` or an `expectedSpend`. */
  withNumberCreditLimits(customerIDs: readonly string[]): Promise<string[]>
  /** The customers with IDs from `firstCustomerID` to `lastCustomerID` that have a number with a `creditLimit` or an `expectedSpend` (a billing run's step). */
  withNumberCreditLimitsBetween(firstCustomerID: string, lastCustomerID: string): Promise<string[]>
  /** Whether any number has a `creditLimit` or an `expectedSpend` (a run reads them per batch only then). */
  anyNumberCreditLimits(): Promise<boolean>
}
