/**
 * The rows keyed to a customer that are no resource of their own (contract 5.6): what its purge
 * removes besides its items. Called in the purge's transaction, before the customer's invoices,
 * features and ledger rows go, since some of these are found through them.
 */
export interface CustomerRemains {
  /**
   * Removes the customer's payment allocations, its held credit, the commission terms its rows
   * earned on, the journal lines of its invoices and the reconciled inputs of its features.
   */
  removeCustomer(customerID: string): Promise<void>
}
