import type { PlatformContext } from '../platform.js'
import type { Presets } from '../presets/presets.js'
import type { JournalCsvPage, JournalPage, JournalScope } from '../ports/books.js'
import { getItem } from '../resources/resources.js'
import { currencyOf, dateRangeOf, type ReportParams } from './report-query.js'

/** `GET /journal?from=&to=&currency=`: the documents dated in the range (of customers billed in `currency`), else `400103`. */
export const journalRange = (params: ReportParams, presets: Pick<Presets, 'lists'>): JournalScope => ({ range: dateRangeOf(params), currency: currencyOf(params, presets) })

/** `GET /billingRuns/<id>/journal?currency=`: the run's invoices (of customers billed in `currency`); an unknown run is `404001`. */
export async function runJournalScope(ctx: PlatformContext, billingRunID: string, currency: string | null = null): Promise<JournalScope> {
  const billingRuns = ctx.resources.get('billingRuns')!
  await getItem(ctx, billingRuns, billingRunID)
  return { billingRunID, currency }
}

/** The journal's lines (contract 16.4), a page at a time as the database sums them; for a CSV answer, pages may come written (`JournalCsvPage`). */
export function journalLines(ctx: PlatformContext, scope: JournalScope, csv: boolean): AsyncIterable<JournalPage | JournalCsvPage> {
  return ctx.store.books.journal(scope, csv)
}
