import type { PlatformContext } from '../platform.js'
import type { JournalCsvPage, JournalPage, JournalScope } from '../ports/books.js'
import { getItem } from '../resources/resources.js'
import { dateRangeOf, type ReportParams } from './report-query.js'

/** `GET /journal?from=&to=`: the documents dated in the range, else `400103`. */
export const journalRange = (params: ReportParams): JournalScope => ({ range: dateRangeOf(params) })

/** `GET /billingRuns/<id>/journal`: the run's invoices; an unknown run is `404001`. */
export async function runJournalScope(ctx: PlatformContext, billingRunID: string): Promise<JournalScope> {
  const billingRuns = ctx.resources.get('billingRuns')!
  await getItem(ctx, billingRuns, billingRunID)
  return { billingRunID }
}

/** The journal's lines (contract 16.4), a page at a time as the database sums them; for a CSV answer, pages may come written (`JournalCsvPage`). */
export function journalLines(ctx: PlatformContext, scope: JournalScope, csv: boolean): AsyncIterable<JournalPage | JournalCsvPage> {
  return ctx.store.books.journal(scope, csv)
}
