import { BillingError } from '../../core/errors.js'
import type { JournalSums, MarginGrouping } from '../../core/ports/books.js'
import type { PlatformContext } from '../../core/platform.js'
import { commissionQuery } from '../../core/reports/commission-statement.js'
import { journalRange, runJournalScope } from '../../core/reports/journal-report.js'
import { marginQuery } from '../../core/reports/margin-report.js'
import { currencyOf } from '../../core/reports/report-query.js'
import { readParams } from '../../adapters/http/query.js'
import { commissionAnswer, journalPieces, marginPieces, type CommissionLineWire } from '../../adapters/http/routes/report-routes.js'

/** How a report or a reconciliation is answered: the API's JSON (default), or its CSV (`Accept: text/csv`). */
export interface ReportOptions<F extends 'json' | 'csv' = 'json' | 'csv'> {
  readonly format?: F
}

/** The JSON document, or the CSV text a piece at a time (never held whole: write it to a file or a response as it comes). */
export type DocumentAnswer<T> = T | AsyncIterable<string>

/** `GET /reports/margin`'s parameters: dates inclusive, both optional; `groupBy` defaults to customer. */
export interface MarginParams {
  readonly from?: string
  readonly to?: string
  readonly groupBy?: MarginGrouping
  /** Only customers billed in this currency (one of the presets' `currencies`). */
  readonly currency?: string
}

/** Revenue, carrier cost, margin and margin % (null without revenue). */
export interface MarginFigures {
  readonly revenue: number
  readonly cost: number
  readonly margin: number
  readonly marginPercent: number | null
}

/** A margin row: the figures and the group, named by `groupBy` (`{ customer: "12", ... }`; null for what no group explains), in one currency. */
export type MarginRow = MarginFigures & { readonly currency: string } & { readonly [group in MarginGrouping]?: string | null }

/** `GET /reports/margin` as JSON (money as JSON numbers, as the API writes them). */
export interface MarginReport {
  readonly from: string | null
  readonly to: string | null
  readonly groupBy: MarginGrouping
  readonly rows: MarginRow[]
  /** Every row's sums: meaningful only within one currency (give `currency`). */
  readonly totals: MarginFigures
  /** The totals of each currency present, in code order. */
  readonly totalsByCurrency: (MarginFigures & { readonly currency: string })[]
}

/** `GET /commissionStatements`' parameters: the run (required) and one holder (default every holder). */
export interface CommissionParams {
  readonly billingRunID: string
  readonly holder?: string
  /** Only the lines of customers billed in this currency. */
  readonly currency?: string
}

/** A statement's line as the API writes it: customer, feature, type, basis, rate and commission. */
export type CommissionStatementLine = CommissionLineWire

/** `GET /commissionStatements` as JSON: a statement per holder with lines, with its total. */
export interface CommissionStatements {
  readonly billingRunID: string
  readonly statements: {
    readonly holder: string
    readonly lines: CommissionStatementLine[]
    /** Every line's commission: meaningful only within one currency. */
    readonly total: number
    readonly totalsByCurrency: { readonly total: number; readonly currency: string }[]
  }[]
}

/** `GET /journal`'s parameters: documents dated from..to, both optional. */
export interface JournalParams {
  readonly from?: string
  readonly to?: string
  /** Only the documents of customers billed in this currency. */
  readonly currency?: string
}

/** `runJournal`'s options: the format, and only the invoices of customers billed in `currency`. */
export type RunJournalOptions<F extends 'json' | 'csv' = 'json' | 'csv'> = ReportOptions<F> & { readonly currency?: string }

/** One journal line: a document's net and VAT for one account code and VAT rate. */
export type JournalLine = Omit<JournalSums, 'net' | 'VAT'> & { readonly net: number; readonly VAT: number }

/** `GET /journal` or `GET /billingRuns/<id>/journal` as JSON. */
export interface Journal {
  readonly billingRunID?: string
  readonly from?: string | null
  readonly to?: string | null
  readonly lines: JournalLine[]
  /** Every line's sums: meaningful only within one currency (give `currency`). */
  readonly totals: JournalTotals
  /** The totals of each currency present, in code order. */
  readonly totalsByCurrency: (JournalTotals & { readonly currency: string })[]
}

/** A journal's net, VAT and their total. */
export interface JournalTotals {
  readonly net: number
  readonly VAT: number
  readonly total: number
}

/**
 * The books' reports (contract 16.2-16.4), with the parameters and answers of their routes: the
 * JSON document (money as JSON numbers; `parseMoney` reads them exactly), or with
 * `{ format: 'csv' }` the CSV document, closing total line included, a piece at a time.
 * Parameters are checked as the query string is (`invalid_query`, `not_found` for a run).
 */
export interface ReportsApi {
  /** `GET /reports/margin`: by customer, carrier, featureType, callClass or month, with totals equal to the ledger's. */
  margin(params?: MarginParams, options?: ReportOptions<'json'>): Promise<MarginReport>
  margin(params: MarginParams | undefined, options: ReportOptions<'csv'>): Promise<AsyncIterable<string>>
  margin(params?: MarginParams, options?: ReportOptions): Promise<DocumentAnswer<MarginReport>>
  /** `GET /commissionStatements`: a run's statements, one per holder (or `holder`'s, even empty). */
  commissionStatements(params: CommissionParams, options?: ReportOptions<'json'>): Promise<CommissionStatements>
  commissionStatements(params: CommissionParams, options: ReportOptions<'csv'>): Promise<AsyncIterable<string>>
  commissionStatements(params: CommissionParams, options?: ReportOptions): Promise<DocumentAnswer<CommissionStatements>>
  /** `GET /journal`: one line per document, account code and VAT rate, of the documents dated in the range. */
  journal(params?: JournalParams, options?: ReportOptions<'json'>): Promise<Journal>
  journal(params: JournalParams | undefined, options: ReportOptions<'csv'>): Promise<AsyncIterable<string>>
  journal(params?: JournalParams, options?: ReportOptions): Promise<DocumentAnswer<Journal>>
  /** `GET /billingRuns/<id>/journal`: the run's invoices; sums to them exactly. */
  runJournal(billingRunID: string, options?: RunJournalOptions<'json'>): Promise<Journal>
  runJournal(billingRunID: string, options: RunJournalOptions<'csv'>): Promise<AsyncIterable<string>>
  runJournal(billingRunID: string, options?: RunJournalOptions): Promise<DocumentAnswer<Journal>>
}

/** The answer in the format asked for: the pieces themselves for CSV, the JSON read whole. */
export async function answerOf<T>(options: ReportOptions | undefined, pieces: (csv: boolean) => AsyncGenerator<string> | Promise<AsyncGenerator<string>>): Promise<DocumentAnswer<T>> {
  const format = options?.format ?? 'json'
  if (format !== 'json' && format !== 'csv') {
    throw new BillingError('invalid_query', `format must be json or csv, not ${JSON.stringify(format)}`, 'Give { format: "json" } or { format: "csv" }.')
  }
  const answer = await pieces(format === 'csv')
  if (format === 'csv') return answer
  let text = ''
  for await (const piece of answer) text += piece
  return JSON.parse(text) as T
}

/** Parameters as the query string carries them: unknown names refused, as a route refuses them. */
function queryOf(params: object | undefined, allowed: readonly string[]) {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params ?? {})) if (value !== undefined && value !== null) search.append(name, String(value))
  return readParams(search, allowed)
}

export function reportsApi(ctx: PlatformContext): ReportsApi {
  return {
    margin: (async (params?: MarginParams, options?: ReportOptions) => {
      const query = marginQuery(queryOf(params, ['from', 'to', 'groupBy', 'currency']), ctx.presets)
      return answerOf(options, (csv) => marginPieces(ctx, query, csv))
    }) as ReportsApi['margin'],
    commissionStatements: (async (params: CommissionParams, options?: ReportOptions) => {
      const query = commissionQuery(queryOf(params, ['billingRunID', 'holder', 'currency']), ctx.presets)
      return answerOf(options, (csv) => commissionAnswer(ctx, query, csv))
    }) as ReportsApi['commissionStatements'],
    journal: (async (params?: JournalParams, options?: ReportOptions) => {
      const scope = journalRange(queryOf(params, ['from', 'to', 'currency']), ctx.presets)
      return answerOf(options, (csv) => journalPieces(ctx, scope, csv))
    }) as ReportsApi['journal'],
    runJournal: (async (billingRunID: string, options?: RunJournalOptions) => {
      const currency = currencyOf(queryOf({ currency: options?.currency }, ['currency']), ctx.presets)
      const scope = await runJournalScope(ctx, billingRunID, currency)
      return answerOf(options, (csv) => journalPieces(ctx, scope, csv))
    }) as ReportsApi['runJournal'],
  }
}
