import { daysBetween, maxDate, minDate, type DateOnly } from '../dates/date-only.js'
import { mulRatioRound, ZERO, type Money } from '../money/money.js'

/** A ledger row as the carrier bill check weighs it: its net and the dates it charges for. */
export interface BilledRow {
  readonly amount: Money
  /** The first day it charges for (else its transaction date). */
  readonly dateFrom: DateOnly
  /** The last day it charges for (else its first). */
  readonly dateTo: DateOnly
}

/**
 * The part of a row billed for [from, to] (contract 17.4, "what we billed the customer for the
 * period"): its amount × the days of its period inside the range ÷ its days, rounded half up to
 * pence once per row as a pro-rated charge is. A yearly charge counts a month's share in a month,
 * not its whole year in each; a row outside the range counts nothing.
 */
export function billedShare(row: BilledRow, from: DateOnly, to: DateOnly): Money {
  const start = maxDate(row.dateFrom, from)
  const end = minDate(row.dateTo, to)
  if (end < start) return ZERO
  const days = daysBetween(row.dateFrom, row.dateTo) + 1
  const inside = daysBetween(start, end) + 1
  return inside >= days ? row.amount : mulRatioRound(row.amount, inside, days, 2)
}
