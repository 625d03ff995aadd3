import { addDays, minDate, parseDate, type DateOnly } from '../dates/date-only.js'

/**
 * Days a reinstated feature is not charged for: from the day after the bill-to date of its drop
 * to the day before its reinstate, both included. Contract 5.5 charges a dropped feature through
 * its bill-to date "and not after"; only unsuspend and makeBillable back-fill (5.4), so a reinstate
 * starts the charges again on its date, the periods laid out from there as a new start's would be.
 */
export interface DropGap {
  readonly from: DateOnly
  readonly to: DateOnly
}

/**
 * The gap a reinstate on `reinstated` leaves for a feature charged through `billTo` (capped by its
 * customer's final-bill date, when the customer is in final bill), or null when no day falls between.
 */
export function dropGap(billTo: DateOnly, reinstated: DateOnly, finalBill: DateOnly | null = null): DropGap | null {
  const from = addDays(finalBill ? minDate(billTo, finalBill) : billTo, 1)
  const to = addDays(reinstated, -1)
  return from <= to ? { from, to } : null
}

const NONE: readonly DropGap[] = []

/** A feature's stored gaps (`dropGaps`, JSON), oldest first; none when unset. Unreadable entries are left out. */
export function parseDropGaps(stored: unknown): readonly DropGap[] {
  // Nearly every feature of a billing run has none: no array made for it.
  if (typeof stored !== 'string' || stored === '') return NONE
  const out: DropGap[] = []
  for (const g of JSON.parse(stored) as { from?: unknown; to?: unknown }[]) {
    const from = parseDate(g.from)
    const to = parseDate(g.to)
    if (from && to && from <= to) out.push({ from, to })
  }
  return out
}

/** The stored text of a feature's gaps. */
export const serializeDropGaps = (gaps: readonly DropGap[]): string => JSON.stringify(gaps.map(({ from, to }) => ({ from, to })))
