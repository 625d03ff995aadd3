import type { Values } from '../fields/item.js'
import type { IgnoreTrafficEntry } from '../rating/match-number.js'
import type { RatingNumber } from '../rating/rate-record.js'
import type { RatingTariff } from '../rating/rating-tariff.js'
import type { CustomerTariffSettings } from '../rating/select-tariff.js'

/** What rating reads in bulk, with only the columns it needs, and how calls are written. */
export interface RatingData {
  numbers(): Promise<RatingNumber[]>
  ignoreTraffic(): Promise<IgnoreTrafficEntry[]>
  /** Default tariffs and markups of customers that have any. */
  customers(): Promise<Map<string, CustomerTariffSettings>>
  /** Call tariffs with their rate rows, by name. */
  tariffs(): Promise<Map<string, RatingTariff>>
  /** Inserts calls, skipping those whose fingerprint is stored already; returns how many were new. */
  insertCalls(calls: readonly Values[]): Promise<number>
}
