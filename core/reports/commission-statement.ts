import type { DateOnly } from '../dates/date-only.js'
import { BillingError } from '../errors.js'
import type { PlatformContext } from '../platform.js'
import type { CommissionWindow } from '../ports/books.js'
import { getItem } from '../resources/resources.js'
import { commissionLines, type CommissionLine } from './commission-lines.js'
import type { ReportParams } from './report-query.js'

/** `GET /commissionStatements/?holder=&billingRunID=`: the run (required) and the holder (all when absent). */
export interface CommissionQuery {
  readonly billingRunID: string
  readonly holder: string | null
}

export function commissionQuery(params: ReportParams): CommissionQuery {
  const billingRunID = params.get('billingRunID')
  if (!billingRunID) throw new BillingError('invalid_query', 'billingRunID is missing', 'A statement is per billing run: give ?billingRunID=.')
  return { billingRunID, holder: params.get('holder') || null }
}

/**
 * The window of a run's statement: the run (`404001` when there is none), and the credit notes
 * dated after the invoice date of the latest completed run before it, through its own: a credit
 * note's clawback lands in the statement of the run that follows it (contract 16.3).
 */
export async function commissionWindow(ctx: PlatformContext, billingRunID: string): Promise<CommissionWindow> {
  const run = await getItem(ctx, ctx.resources.get('billingRuns')!, billingRunID)
  const through = run.invoiceDate as DateOnly
  let after: DateOnly | null = null
  const runs = ctx.store.repository('billingRuns')
  for (let idAfter: string | undefined; ; ) {
    const page = await runs.list({ where: [{ op: 'eq', column: 'status', value: 'Complete' }], idAfter, limit: 1000, storedOnly: true })
    for (const r of page) {
      const date = r.invoiceDate as DateOnly | null
      if (r.id !== run.id && date && date < through && (after === null || date > after)) after = date
    }
    if (page.length < 1000) break
    idAfter = page.at(-1)!.id
  }
  return { billingRunID: run.id, creditsAfter: after, creditsThrough: through }
}

/** A run's commission lines (its `commissionWindow`) for `holder` (or every holder), a page at a time. */
export async function* commissionStatementLines(ctx: PlatformContext, window: CommissionWindow, holder: string | null): AsyncGenerator<CommissionLine[]> {
  for await (const rows of ctx.store.books.commissionRows(window, holder)) {
    yield rows.flatMap((r) => commissionLines(r, holder, ctx.presets))
  }
}

/** One holder's statement: its lines a page at a time, read when the statement is written. */
export interface CommissionStatement {
  readonly holder: string
  readonly pages: AsyncGenerator<CommissionLine[]>
}

/**
 * A run's statements: `holder`'s, or every holder's one after the other in the database's
 * order of names (a holder with no line in the run is left to the reader to drop). Each is
 * read from its holder's features as one holder's statement is, so an answer of every holder
 * holds a page of lines at a time, never all of them.
 */
export async function* commissionStatements(ctx: PlatformContext, window: CommissionWindow, holder: string | null): AsyncGenerator<CommissionStatement> {
  if (holder !== null) {
    yield { holder, pages: commissionStatementLines(ctx, window, holder) }
    return
  }
  for await (const holders of ctx.store.books.commissionHolders()) {
    for (const h of holders) yield { holder: h, pages: commissionStatementLines(ctx, window, h) }
  }
}
