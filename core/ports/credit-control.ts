import type { Stamp } from '../dates/stamp.js'
import type { Money } from '../money/money.js'

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
  /**
   * Its numbers with a `creditLimit` or an `expectedSpend`, or marked over their limit, each with its
   * unbilled and its month's call charges, and whether it was over its limit at the last measure.
   */
  readonly numbers: readonly { readonly id: string; readonly creditLimit: Money | null; readonly unbilledCalls: Money; readonly expectedSpend: Money | null; readonly monthCalls: Money; readonly overCreditLimit: boolean }[]
  readonly expectedSpend: Money | null
  /** Cost of its rated, undeleted calls started in the month measured (billed or not); zero when none is. */
  readonly monthCalls: Money
  /** The alerts stored now. */
  readonly stored: readonly string[]
  /** The month (YYYY-MM) a spend alert was last announced, or null. */
  readonly spendAlertMonth: string | null
}

/** A customer's alerts as stored, and the month a spend alert was last announced. */
export interface StoredAlerts {
  readonly alerts: readonly string[]
  readonly spendAlertMonth: string | null
}

/** What spend alerts are measured against: the presets' ratio and the calendar month of `now` (UTC). */
export interface SpendMeasure {
  readonly ratio: Money
  readonly month: string
  readonly from: Stamp
  readonly to: Stamp
}

/** What credit control reads and writes (contract 10.6): the figures limits measure, and the alerts. */
export interface CreditControl {
  /**
   * What each customer's credit alerts are measured on (unsent invoices: those with no `sentDate`).
   * unsent. The calls of `spend`'s month are summed only when it is given.
   */
  creditFigures(customerIDs: readonly string[], spend: SpendMeasure | null): Promise<Map<string, CreditFigures>>
  /**
   * Stores the alerts, and with `spendAlertMonth` the month a spend alert was announced. With
   * `expected`, only if the customer's alerts and month are still those (as `creditFigures` read
   * them): false, and nothing written, where another write changed them since.
   */
  setCreditAlerts(customerID: string, alerts: readonly string[], spendAlertMonth?: string, expected?: StoredAlerts): Promise<boolean>
  /** Marks the numbers over their own `creditLimit` as measured now (`over`), or no longer over; answers those whose mark this changed. */
  markNumbersOver(numberIDs: readonly string[], over: boolean): Promise<string[]>
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
