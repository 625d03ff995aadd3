import { add, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Presets } from '../presets/presets.js'
import type { JournalCsvPage, JournalDocument, JournalPage, JournalScope } from '../ports/books.js'
import { getItem } from '../resources/resources.js'
import { CurrencyTotals, type CurrencySums } from './currency-totals.js'
import { currencyOf, dateRangeOf, type ReportParams } from './report-query.js'

/** `GET /journal?from=&to=&currency=`: the documents dated in the range (of customers billed in `currency`), else `400103`. */
export const journalRange = (params: ReportParams, presets: Pick<Presets, 'lists'>): JournalScope => ({ range: dateRangeOf(params), currency: currencyOf(params, presets) })

/** `GET /billingRuns/<id>/journal?currency=`: the run's invoices (of customers billed in `currency`); an unknown run is `404001`. */
export async function runJournalScope(ctx: PlatformContext, billingRunID: string, currency: string | null = null): Promise<JournalScope> {
  const billingRuns = ctx.resources.get('billingRuns')!
  await getItem(ctx, billingRuns, billingRunID)
  return { billingRunID, currency }
}

/** A journal's net, VAT and their total. */
export interface JournalTotals {
  readonly net: Money
  readonly VAT: Money
  readonly total: Money
}

/** A journal (contract 16.4): its pages, then its totals, as `journalReport` gives them. */
export interface JournalReport {
  /** The lines, a page at a time as the database sums them; for a CSV answer, pages may come written (`JournalCsvPage`). */
  readonly pages: AsyncGenerator<JournalPage | JournalCsvPage>
  /** Every line's sums (exact; they add currencies when there are several), once the pages are all out. */
  totals(): JournalTotals
  /** The sums of each currency present, in code order, once the pages are all out. */
  totalsByCurrency(): (JournalTotals & { readonly currency: string })[]
}

const totalsOf = (s: { net: Money; VAT: Money }): JournalTotals => ({ net: s.net, VAT: s.VAT, total: add(s.net, s.VAT) })

/**
 * The journal of `scope` with its totals. A page's lines are added up as its reader walks them
 * (one walk: a page of a run's journal is decoded as it is walked, bench/reports.ts), or, when
 * its reader asks for the next page without walking it, then.
 */
export function journalReport(ctx: PlatformContext, scope: JournalScope, csv: boolean): JournalReport {
  const sums = new CurrencyTotals(['net', 'VAT'] as const)
  async function* pages(): AsyncGenerator<JournalPage | JournalCsvPage> {
    for await (const page of ctx.store.books.journal(scope, csv)) {
      if ('csv' in page) {
        for (const s of page.sums) sums.add(s.currency, s)
        yield page
        continue
      }
      let added = false
      const counted: JournalPage = {
        forEach(line) {
          if (added) return page.forEach(line)
          added = true
          // The sums of the current document's currency, looked up once a document.
          let last: JournalDocument | null = null
          let of!: CurrencySums<'net' | 'VAT'>
          page.forEach((d, accountCode, VATRate, net, VAT) => {
            if (d !== last) {
              last = d
              of = sums.of(d.currency)
            }
            of.net = add(of.net, net)
            of.VAT = add(of.VAT, VAT)
            line(d, accountCode, VATRate, net, VAT)
          })
        },
      }
      yield counted
      if (!added) counted.forEach(() => {})
    }
  }
  return {
    pages: pages(),
    totals: () => totalsOf(sums.all()),
    totalsByCurrency: () => sums.byCurrency().map((t) => ({ ...totalsOf(t.sums), currency: t.currency })),
  }
}
