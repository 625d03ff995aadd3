import type { Stamp } from '../dates/stamp.js'

/**
 * The rows keyed to a customer that are no resource of their own (contract 5.6): what its purge
 * removes besides its items. Called in the purge's transaction, before the customer's invoices,
 * features and ledger rows go, since some of these are found through them.
 */
export interface CustomerRemains {
  /**
   * Removes the customer's payment allocations, its held credit, the commission terms its rows
   * earned on, the journal lines of its invoices, the reconciled inputs of its features, its
   * and its direct contacts' portal sessions and failed sign-ins, and takes its features off
   * the carriers' bills (the bills stay; `stamp` is their `updatedStamp` where one changes).
   */
  removeCustomer(customerID: string, stamp: Stamp): Promise<void>
}
