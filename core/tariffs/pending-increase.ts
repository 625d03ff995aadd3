import type { DateOnly } from '../dates/date-only.js'
import type { Values } from '../fields/item.js'

/**
 * A call tariff's own prices raised from a later date (contract 17.5). A tariff's base prices
 * have no dates of their own, so an increase from a later date keeps them here: rating prices
 * calls that start on or after `from` with them (`tariffOn`), and the daily job moves them into
 * the tariff's fields once the date has come (`applyDueIncreases`).
 */
export interface PendingIncrease {
  readonly from: DateOnly
  /** The raised values of the tariff's price fields, as they are stored (numbers). */
  readonly values: Values
  /** The increase's percentage (as `increasePercent` reads) and scope, so a PATCH of a price before the date re-bases it (`pendingAfterPatch`); absent on ones stored before. */
  readonly percent?: number
  readonly scope?: string
}

/** The tariff's pending increase, or null. */
export function pendingIncreaseOf(tariff: Readonly<Record<string, unknown>>): PendingIncrease | null {
  const stored = tariff.pendingIncrease
  return typeof stored === 'string' && stored !== '' ? (JSON.parse(stored) as PendingIncrease) : null
}

export const serializePending = (pending: PendingIncrease): string => JSON.stringify(pending)
