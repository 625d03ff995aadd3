import { BillingError } from '../errors.js'
import type { Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Presets } from '../presets/presets.js'
import type { CommissionWindow } from '../ports/books.js'
import { getItem } from '../resources/resources.js'
import { isIdText } from '../resources/list-request.js'
import { commissionLines, type CommissionLine } from './commission-lines.js'
import { CurrencyTotals } from './currency-totals.js'
import { currencyOf, type ReportParams } from './report-query.js'

/** `GET /commissionStatements/?holder=&billingRunID=`: the run (required) and the holder (all when absent). */
export interface CommissionQuery {
  readonly billingRunID: string
  readonly holder: string | null
  /** Only the lines of customers billed in this currency (null: every currency). */
  readonly currency: string | null
}

export function commissionQuery(params: ReportParams, presets: Pick<Presets, 'lists'>): CommissionQuery {
  const billingRunID = params.get('billingRunID')
  if (!billingRunID) throw new BillingError('invalid_query', 'billingRunID is missing', 'A statement is per billing run: give ?billingRunID=.')
  // Refused as a list's ID filter refuses it (`?resourceID=abc`): not an ID is a bad query, not a missing run.
  if (!isIdText(billingRunID)) {
    throw new BillingError('invalid_query', `Query parameter "billingRunID" must be an ID (a positive whole number)`, 'Correct "billingRunID".')
  }
  return { billingRunID, holder: params.get('holder') || null, currency: currencyOf(params, presets) }
}

/**
 * The run of a statement (`404001` when there is none). Its credit notes are those it claimed
 * when it completed (core/billing/commission-credits.ts), none before, and its rows' terms those
 * kept then: a statement is stable once its run is complete.
 */
export async function commissionWindow(ctx: PlatformContext, billingRunID: string): Promise<CommissionWindow> {
  const run = await getItem(ctx, ctx.resources.get('billingRuns')!, billingRunID)
  return { billingRunID: run.id, complete: run.status === 'Complete' }
}

/** A run's commission lines (its `commissionWindow`) for `holder` (or every holder), of customers billed in `currency` (null: any), a page at a time. */
export async function* commissionStatementLines(ctx: PlatformContext, window: CommissionWindow, holder: string | null, currency: string | null = null): AsyncGenerator<CommissionLine[]> {
  for await (const rows of ctx.store.books.commissionRows(window, holder)) {
    yield rows.flatMap((r) => (currency === null || r.currency === currency ? commissionLines(r, holder, ctx.presets) : []))
  }
}

/** One holder's statement: its lines a page at a time, read when the statement is written, then its totals. */
export interface CommissionStatement {
  readonly holder: string
  readonly pages: AsyncGenerator<CommissionLine[]>
  /** Every line's commission (exact; it adds currencies when there are several), once the pages are all out. */
  total(): Money
  /** The commission of each currency present, in code order, once the pages are all out. */
  totalsByCurrency(): { readonly total: Money; readonly currency: string }[]
}

/** `holder`'s statement: its lines (as `commissionStatementLines`), added up per currency as they are read. */
function statementOf(ctx: PlatformContext, window: CommissionWindow, holder: string, currency: string | null): CommissionStatement {
  const sums = new CurrencyTotals(['commission'] as const)
  async function* pages(): AsyncGenerator<CommissionLine[]> {
    for await (const page of commissionStatementLines(ctx, window, holder, currency)) {
      for (const l of page) sums.add(l.currency, l)
      yield page
    }
  }
  return {
    holder,
    pages: pages(),
    total: () => sums.all().commission,
    totalsByCurrency: () => sums.byCurrency().map((t) => ({ total: t.sums.commission, currency: t.currency })),
  }
}

/**
 * A run's statements: `holder`'s, or every holder's one after the other in the database's
 * order of names (a holder with no line in the run is left to the reader to drop; a completed
 * run's are the holders its kept terms name, whoever holds the features now). Each is
 * read from its holder's features as one holder's statement is, so an answer of every holder
 * holds a page of lines at a time, never all of them.
 */
export async function* commissionStatements(ctx: PlatformContext, window: CommissionWindow, holder: string | null, currency: string | null = null): AsyncGenerator<CommissionStatement> {
  if (holder !== null) {
    yield statementOf(ctx, window, holder, currency)
    return
  }
  for await (const holders of ctx.store.books.commissionHolders(window)) {
    for (const h of holders) yield statementOf(ctx, window, h, currency)
  }
}
