import type { Stamp } from '../dates/stamp.js'

/**
 * The provider callbacks processed, by their Standard Webhooks `webhook-id` (contract 15.1). A
 * signed message can be replayed within its five minutes, and providers retry the same message,
 * so a callback is applied once per `(provider, webhook-id)` whatever it says.
 */
export interface CallbackReceipts {
  /**
   * Records `provider`'s message `webhookID` in the caller's transaction: true when it is new,
   * false when it was recorded already. Two copies at once: the second waits for the first's
   * transaction and, if that committed, answers false (a unique key decides, not a read).
   */
  record(provider: string, webhookID: string, receivedStamp: Stamp): Promise<boolean>
  /** Forgets the receipts received before `stamp` (core/payments/receipt-retention.ts); returns how many. */
  removeBefore(stamp: Stamp): Promise<number>
}
