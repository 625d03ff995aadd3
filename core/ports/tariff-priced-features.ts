/** Which features a fixed fee tariff write is looked for in: the users of some tariffs, or those hanging on one item. */
export type TariffPricedScope =
  | { readonly tariffs: readonly string[] }
  | { readonly of: { readonly column: 'id' | 'customerID' | 'numberID' | 'serviceID'; readonly id: string } }

/** A feature's charge history to store, serialised (core/billing/stored-feature.ts). */
export interface StoredChargeHistory {
  readonly id: string
  readonly chargeHistory: string
}

/** The features a fixed fee tariff prices (contract 9.6), found and written in bulk for a change of its prices. */
export interface TariffPricedFeatures {
  /**
   * IDs, in ID order, of the features with a start date and no `serviceCharge` of their own
   * whose fixed fee tariff (the feature's, else its number's or service's, else its customer's,
   * as `applicableTariff` resolves it) is set and, with `tariffs`, one of those names: one query
   * whatever the count.
   */
  featureIDs(scope: TariffPricedScope): Promise<string[]>
  /** Stores each feature's charge history, many a statement. */
  writeHistories(rows: readonly StoredChargeHistory[]): Promise<void>
}
