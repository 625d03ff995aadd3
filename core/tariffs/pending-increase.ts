import type { DateOnly } from '../dates/date-only.js'
import type { Values } from '../fields/item.js'

/**
 * A call tariff's own prices raised from a later date (contract 17.5). A tariff's base prices
 * have no dates of their own, so an increase from a later date keeps them here: rating prices
 * calls that start on or after `from` with them (`tariffOn`), and the daily job moves them into
 * the tariff's fields once the date has come (`applyDueIncreases`), keeping the prices they
 * replace as `EarlierPrices`.
 */
export interface PendingIncrease {
  readonly from: DateOnly
  /** The raised values of the tariff's price fields, as they are stored (numbers). */
  readonly values: Values
  /** The increase's percentage (as `increasePercent` reads) and scope, so a PATCH of a price before the date re-bases it (`pendingAfterPatch`); absent on ones stored before. */
  readonly percent?: number
  readonly scope?: string
}

/**
 * The tariff's own prices before a dated increase the daily job has applied: a late call, a
 * billing run or a re-allocation of allowances prices a call that started before `until` with
 * them, as its details' dated rows do. Only the fields that increase changed are kept.
 */
export interface EarlierPrices {
  /** The increase's date: the first day these prices no longer apply. */
  readonly until: DateOnly
  readonly values: Values
}

/** What the `pendingIncrease` column holds: the pending increase's fields (if any) and the earlier prices. */
type Stored = Partial<PendingIncrease> & { readonly earlier?: readonly EarlierPrices[] }

function storedOf(tariff: Readonly<Record<string, unknown>>): Stored | null {
  const stored = tariff.pendingIncrease
  return typeof stored === 'string' && stored !== '' ? (JSON.parse(stored) as Stored) : null
}

/** The tariff's pending increase, or null. */
export function pendingIncreaseOf(tariff: Readonly<Record<string, unknown>>): PendingIncrease | null {
  const stored = storedOf(tariff)
  if (!stored || stored.from === undefined) return null
  const { earlier: _earlier, ...pending } = stored
  return pending as PendingIncrease
}

/** The tariff's earlier prices, oldest first (none when no dated increase has been applied). */
export function earlierPricesOf(tariff: Readonly<Record<string, unknown>>): readonly EarlierPrices[] {
  return storedOf(tariff)?.earlier ?? []
}

/** The stored `pendingIncrease`: null when nothing waits and no earlier prices are kept. */
export function serializeIncreases(pending: PendingIncrease | null, earlier: readonly EarlierPrices[]): string | null {
  if (!pending && earlier.length === 0) return null
  return JSON.stringify({ ...pending, ...(earlier.length > 0 ? { earlier } : {}) })
}
