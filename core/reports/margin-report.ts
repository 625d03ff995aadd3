import { mulRatio, sub, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Presets } from '../presets/presets.js'
import { marginGroupings, type DateRange, type MarginGrouping, type MarginSums } from '../ports/books.js'
import { CurrencyTotals } from './currency-totals.js'
import { currencyOf, dateRangeOf, oneOf, type ReportParams } from './report-query.js'

/** `GET /reports/margin` (contract 16.2): the range and the grouping asked for. */
export interface MarginQuery {
  readonly range: DateRange
  readonly groupBy: MarginGrouping
  /** Only customers billed in this currency (null: every currency, each group in one). */
  readonly currency: string | null
}

/** One row of a margin report: a group's revenue (net billed), carrier cost, margin and margin as a percentage of revenue. */
export interface MarginLine {
  readonly key: string | null
  /** The group's currency; null on the totals of every currency (meaningful only when there is one). */
  readonly currency: string | null
  readonly revenue: Money
  readonly cost: Money
  readonly margin: Money
  /** margin × 100 / revenue, half up to 2 places; null without revenue. */
  readonly marginPercent: Money | null
}

/** The query of a margin report, else `400103`. `groupBy` defaults to customer; `currency` one of the presets' `currencies`. */
export function marginQuery(params: ReportParams, presets: Pick<Presets, 'lists'>): MarginQuery {
  return { range: dateRangeOf(params), groupBy: oneOf(params, 'groupBy', marginGroupings, 'customer'), currency: currencyOf(params, presets) }
}

export function marginLine(s: Omit<MarginSums, 'currency'> & { readonly currency: string | null }): MarginLine {
  const margin = sub(s.revenue, s.cost)
  // In hundredths of a percent, rounded once, then as money units (4 places).
  const marginPercent = s.revenue === 0n ? null : ((mulRatio(margin, 10_000n, s.revenue) as bigint) * 100n) as Money
  return { key: s.key, currency: s.currency, revenue: s.revenue, cost: s.cost, margin, marginPercent }
}

/**
 * A margin report's lines, a page at a time as the database sums them, and the totals once
 * they are all out: `totals()` is the sum of every line read (exact; it equals the ledger's, and
 * adds currencies when there are several), `totalsByCurrency()` one per currency, in code order.
 */
export function marginReport(ctx: PlatformContext, query: MarginQuery): { pages: AsyncGenerator<MarginLine[]>; totals: () => MarginLine; totalsByCurrency: () => MarginLine[] } {
  const sums = new CurrencyTotals(['revenue', 'cost'] as const)
  async function* pages(): AsyncGenerator<MarginLine[]> {
    for await (const page of ctx.store.books.margin(query.range, query.groupBy, query.currency)) {
      for (const s of page) sums.add(s.currency, s)
      yield page.map(marginLine)
    }
  }
  const totalsByCurrency = () => sums.byCurrency().map((t) => marginLine({ key: null, currency: t.currency, ...t.sums }))
  const totals = () => marginLine({ key: null, currency: null, ...sums.all() })
  return { pages: pages(), totals, totalsByCurrency }
}
