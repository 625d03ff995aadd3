import type { DateOnly } from '../dates/date-only.js'
import type { Money } from '../money/money.js'

/** What the `auto-topup` job needs of a customer to decide (core/credit/auto-topups.ts). */
export interface TopupCandidate {
  readonly id: string
  readonly autoTopupProfile: string | null
  readonly autoTopupAmount: Money | null
  readonly autoTopupRequestedDate: DateOnly | null
  /** Dropped or in final bill: never asked. */
  readonly closed: boolean
}

/** What automatic top-ups read: the customers that may be due one, and their funds. */
export interface AutoTopups {
  /**
   * Up to `limit` customers with IDs after `afterID`, in ID order: those whose `autoTopupProfile`
   * is one of `profiles` (the names with a threshold) and that are neither dropped nor in final
   * bill, and those with a top-up requested (whatever their profile and state now, so that the
   * mark can be cleared). Chosen by the database: a customer without a profile is never read.
   */
  candidates(profiles: readonly string[], afterID: string, limit: number): Promise<TopupCandidate[]>
  /**
   * Each customer's funds, the money it holds: minus its balance (amount + VAT of all its
   * transactions), minus the cost of its rated calls no run has billed yet (the unbilled calls
   * `creditLimitCalls` measures; its unapproved `Call Charges` rows are in the balance already).
   * A customer without any is at zero.
   */
  funds(customerIDs: readonly string[]): Promise<Map<string, Money>>
}
