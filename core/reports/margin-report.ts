import { add, mulRatio, sub, ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import { marginGroupings, type DateRange, type MarginGrouping, type MarginSums } from '../ports/books.js'
import { dateRangeOf, oneOf, type ReportParams } from './report-query.js'

/** `GET /reports/margin` (contract 16.2): the range and the grouping asked for. */
export interface MarginQuery {
  readonly range: DateRange
  readonly groupBy: MarginGrouping
}

/** One row of a margin report: a group's revenue (net billed), carrier cost, margin and margin as a percentage of revenue. */
export interface MarginLine {
  readonly key: string | null
  readonly revenue: Money
  readonly cost: Money
  readonly margin: Money
  /** margin × 100 / revenue, half up to 2 places; null without revenue. */
  readonly marginPercent: Money | null
}

/** The query of a margin report, else `400103`. `groupBy` defaults to customer. */
export function marginQuery(params: ReportParams): MarginQuery {
  return { range: dateRangeOf(params), groupBy: oneOf(params, 'groupBy', marginGroupings, 'customer') }
}

export function marginLine(s: MarginSums): MarginLine {
  const margin = sub(s.revenue, s.cost)
  // In hundredths of a percent, rounded once, then as money units (4 places).
  const marginPercent = s.revenue === 0n ? null : ((mulRatio(margin, 10_000n, s.revenue) as bigint) * 100n) as Money
  return { key: s.key, revenue: s.revenue, cost: s.cost, margin, marginPercent }
}

/**
 * A margin report's lines, a page at a time as the database sums them, and the totals once
 * they are all out: `totals()` is the sum of every line read (exact; it equals the ledger's).
 */
export function marginReport(ctx: PlatformContext, query: MarginQuery): { pages: AsyncGenerator<MarginLine[]>; totals: () => MarginLine } {
  let revenue = ZERO
  let cost = ZERO
  async function* pages(): AsyncGenerator<MarginLine[]> {
    for await (const page of ctx.store.books.margin(query.range, query.groupBy)) {
      for (const s of page) {
        revenue = add(revenue, s.revenue)
        cost = add(cost, s.cost)
      }
      yield page.map(marginLine)
    }
  }
  return { pages: pages(), totals: () => marginLine({ key: null, revenue, cost }) }
}
