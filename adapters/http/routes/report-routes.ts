import type { H3Event } from 'h3'
import { moneyToNumber, moneyToNumberText } from '../../../core/money/money.js'
import type { JournalDocument, MarginGrouping } from '../../../core/ports/books.js'
import type { PlatformContext } from '../../../core/platform.js'
import { journalRange, journalReport, runJournalScope, type JournalTotals } from '../../../core/reports/journal-report.js'
import { marginQuery, marginReport, type MarginLine, type MarginQuery } from '../../../core/reports/margin-report.js'
import type { CommissionWindow, JournalScope } from '../../../core/ports/books.js'
import type { CommissionLine } from '../../../core/reports/commission-lines.js'
import { commissionQuery, commissionStatements, commissionWindow, type CommissionQuery } from '../../../core/reports/commission-statement.js'
import { csvCell, csvLine } from '../../../core/documents/csv-cells.js'
import { streamedAnswer, wantsCsv } from '../csv-response.js'
import type { Route } from '../route.js'
import { readQuery } from '../query.js'
import { currencyOf } from '../../../core/reports/report-query.js'

const CSV = { 'text/csv': 'the same lines as CSV, with a header line, a total line per currency (its last cell) and a closing total line of every currency (last cell empty)' }
/** `currency`, last: columns added later come after those clients read by position. */
const JOURNAL_COLUMNS = ['date', 'documentType', 'document', 'customerID', 'account', 'accountCode', 'VATRate', 'net', 'VAT', 'currency'] as const

/** The books' reports (contract 16.2, 16.4): expert level 3, JSON or CSV by `Accept`, streamed. */
export function reportRoutes(): Route[] {
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/reports/margin',
      doc: { summary: 'Margin: approved net revenue, carrier cost, margin and margin % by customer, carrier, featureType, callClass or month, with totals', kind: 'other', query: ['from', 'to', 'groupBy', 'currency'], alternatives: CSV },
      async handler(event, ctx) {
        const query = marginQuery(readQuery(event, ['from', 'to', 'groupBy', 'currency']), ctx.platform.presets)
        const csv = wantsCsv(event)
        return streamedAnswer(event, csv, marginPieces(ctx.platform, query, csv))
      },
    },
    {
      method: 'GET',
      path: '/commissionStatements',
      doc: { summary: "A billing run's commission statements (one per holder, or ?holder='s): lines of customer, account number, feature, saleType, type, basis, rate and commission, and a total", kind: 'other', query: ['billingRunID', 'holder', 'currency'], alternatives: CSV },
      async handler(event, ctx) {
        const query = commissionQuery(readQuery(event, ['billingRunID', 'holder', 'currency']), ctx.platform.presets)
        const csv = wantsCsv(event)
        return streamedAnswer(event, csv, await commissionAnswer(ctx.platform, query, csv))
      },
    },
    {
      method: 'GET',
      path: '/journal',
      doc: { summary: 'Accounting journal of the documents dated from..to: one line per document, account code and VAT rate', kind: 'other', query: ['from', 'to', 'currency'], alternatives: CSV },
      async handler(event, ctx) {
        return journalAnswer(event, ctx.platform, journalRange(readQuery(event, ['from', 'to', 'currency']), ctx.platform.presets))
      },
    },
    {
      method: 'GET',
      path: '/billingRuns/:id/journal',
      doc: { summary: "Accounting journal of a billing run's invoices: one line per invoice, account code and VAT rate; sums to its invoices", kind: 'other', query: ['currency'], alternatives: CSV },
      async handler(event, ctx) {
        const currency = currencyOf(readQuery(event, ['currency']), ctx.platform.presets)
        return journalAnswer(event, ctx.platform, await runJournalScope(ctx.platform, ctx.params.id, currency))
      },
    },
  ]
  return routes.map((route) => ({ ...route, access: 'expertLevel3' as const }))
}

type Report = ReturnType<typeof marginReport>

/** The margin report's answer (JSON or CSV), a piece at a time: the route's, and the library's. */
export function marginPieces(platform: PlatformContext, query: MarginQuery, csv: boolean): AsyncGenerator<string> {
  const report = marginReport(platform, query)
  return csv ? marginCsv(query.groupBy, report) : marginJson(query, report)
}

/** A run's commission statements as answered (JSON or CSV), once the run is known (`404001` when not). */
export async function commissionAnswer(platform: PlatformContext, query: CommissionQuery, csv: boolean): Promise<AsyncGenerator<string>> {
  const window = await commissionWindow(platform, query.billingRunID)
  return commissionPieces(platform, window, query, csv)
}

const wireLine = (groupBy: MarginGrouping, l: MarginLine) => ({
  [groupBy]: l.key,
  revenue: moneyToNumber(l.revenue),
  cost: moneyToNumber(l.cost),
  margin: moneyToNumber(l.margin),
  marginPercent: l.marginPercent === null ? null : moneyToNumber(l.marginPercent),
  currency: l.currency,
})

/** A margin total's figures (no group); with its currency when it is one currency's. */
const wireTotal = (l: MarginLine, withCurrency: boolean) => {
  const { revenue, cost, margin, marginPercent, currency } = wireLine('customer', l)
  return withCurrency ? { revenue, cost, margin, marginPercent, currency } : { revenue, cost, margin, marginPercent }
}

async function* marginJson(query: ReturnType<typeof marginQuery>, report: Report): AsyncGenerator<string> {
  yield `{"from":${JSON.stringify(query.range.from)},"to":${JSON.stringify(query.range.to)},"groupBy":${JSON.stringify(query.groupBy)},"rows":[`
  yield* linesOf(report.pages, (l) => wireLine(query.groupBy, l), false)
  yield `],"totals":${JSON.stringify(wireTotal(report.totals(), false))},"totalsByCurrency":${JSON.stringify(report.totalsByCurrency().map((t) => wireTotal(t, true)))}}`
}

/** A margin line as CSV, as `csvLine` writes `wireLine`'s values, without the object, array and doubles between. */
const marginCsvLine = (l: MarginLine): string =>
  `${csvCell(l.key)},${moneyToNumberText(l.revenue)},${moneyToNumberText(l.cost)},${moneyToNumberText(l.margin)},${l.marginPercent === null ? '' : moneyToNumberText(l.marginPercent)},${csvCell(l.currency)}\r\n`

async function* marginCsv(groupBy: MarginGrouping, report: Report): AsyncGenerator<string> {
  yield csvLine([groupBy, 'revenue', 'cost', 'margin', 'marginPercent', 'currency'])
  yield* linesOf(report.pages, (l) => wireLine(groupBy, l), marginCsvLine)
  // A total line per currency, then the closing one of every currency (its currency cell empty).
  for (const t of [...report.totalsByCurrency(), report.totals()]) yield marginCsvLine({ ...t, key: 'total' })
}

/**
 * Pages of report lines as CSV lines (`csv`: true, or a function writing a line's), or as the
 * items of a JSON array (a comma before every page but the first).
 */
async function* linesOf<T>(pages: AsyncIterable<readonly T[]>, wire: (l: T) => object, csv: boolean | ((l: T) => string)): AsyncGenerator<string> {
  let first = true
  const csvOf = typeof csv === 'function' ? csv : (l: T) => csvLine(Object.values(wire(l)))
  for await (const page of pages) {
    if (page.length === 0) continue
    let text = ''
    if (csv) for (const l of page) text += csvOf(l)
    else text = page.map((l) => JSON.stringify(wire(l))).join(',')
    yield csv || first ? text : `,${text}`
    first = false
  }
}

function journalAnswer(event: H3Event, platform: PlatformContext, scope: JournalScope): Response {
  const csv = wantsCsv(event)
  return streamedAnswer(event, csv, journalPieces(platform, scope, csv))
}

/**
 * The journal's lines, CSV or the JSON items of `lines`, written as each page is walked: no
 * object for a CSV line, and a document's cells (date, type, number, customer, account) written
 * once for its lines, account codes and VAT rates quoted once (a run's journal is 400,000 lines
 * of 200,000 invoices: bench/reports.ts). Dates, document types and IDs need no quoting.
 */
export async function* journalPieces(platform: PlatformContext, scope: JournalScope, csv: boolean): AsyncGenerator<string> {
  const report = journalReport(platform, scope, csv)
  let tail = ''
  yield csv ? csvLine(JOURNAL_COLUMNS) : `{${'billingRunID' in scope ? `"billingRunID":${JSON.stringify(scope.billingRunID)}` : `"from":${JSON.stringify(scope.range.from)},"to":${JSON.stringify(scope.range.to)}`},"lines":[`
  let first = true
  let last: JournalDocument | null = null
  let head = ''
  const quoted = new Map<string | null, string>()
  const cell = (v: string | null): string => {
    let q = quoted.get(v)
    if (q === undefined) {
      q = csvCell(v)
      if (quoted.size < 1_000) quoted.set(v, q)
    }
    return q
  }
  for await (const page of report.pages) {
    // Written by the database as these lines would be here (adapters/persistence/reports/invoice-journal-csv.ts).
    if ('csv' in page) {
      if (page.csv) yield page.csv
      continue
    }
    let text = ''
    page.forEach((d, accountCode, VATRate, lineNet, lineVAT) => {
      if (d !== last) {
        last = d
        if (csv) {
          head = `${d.date},${d.documentType},${csvCell(d.document)},${d.customerID},${csvCell(d.account)},`
          tail = `,${csvCell(d.currency)}\r\n`
        }
      }
      if (csv) {
        text += `${head}${cell(accountCode)},${cell(VATRate)},${moneyToNumberText(lineNet)},${moneyToNumberText(lineVAT)}${tail}`
      } else {
        const wire = { date: d.date, documentType: d.documentType, document: d.document, customerID: d.customerID, account: d.account, accountCode, VATRate, net: moneyToNumber(lineNet), VAT: moneyToNumber(lineVAT), currency: d.currency }
        text += `${first ? '' : ','}${JSON.stringify(wire)}`
        first = false
      }
    })
    if (text) yield text
  }
  const wire = (t: JournalTotals) => ({ net: moneyToNumber(t.net), VAT: moneyToNumber(t.VAT), total: moneyToNumber(t.total) })
  const byCurrency = report.totalsByCurrency().map((t) => ({ ...wire(t), currency: t.currency }))
  if (!csv) {
    yield `],"totals":${JSON.stringify(wire(report.totals()))},"totalsByCurrency":${JSON.stringify(byCurrency)}}`
    return
  }
  // A total line per currency, then the closing one of every currency (its currency cell empty).
  let text = ''
  for (const t of [...byCurrency, { ...wire(report.totals()), currency: '' }]) text += csvLine(['total', '', '', '', '', '', '', t.net, t.VAT, t.currency])
  yield text
}

const COMMISSION_COLUMNS = ['holder', 'role', 'customerID', 'accountNumber', 'featureID', 'saleType', 'transactionID', 'transactionType', 'type', 'basis', 'rate', 'commission', 'currency'] as const

/** A commission statement's line as JSON. */
export type CommissionLineWire = ReturnType<typeof commissionWire>

const commissionWire = (l: CommissionLine) => ({
  holder: l.holder,
  role: l.role,
  customerID: l.customerID,
  accountNumber: l.accountNumber,
  featureID: l.featureID,
  saleType: l.saleType,
  transactionID: l.transactionID,
  transactionType: l.transactionType,
  type: l.type,
  basis: moneyToNumber(l.basis),
  rate: moneyToNumber(l.rate),
  commission: moneyToNumber(l.commission),
  currency: l.currency,
})

/**
 * A run's statements, one per holder with lines (or `holder`'s, even empty), each with its
 * lines and total, streamed holder by holder and page by page.
 */
async function* commissionPieces(platform: PlatformContext, window: CommissionWindow, query: CommissionQuery, csv: boolean): AsyncGenerator<string> {
  const holder = query.holder
  yield csv ? csvLine(COMMISSION_COLUMNS) : `{"billingRunID":${JSON.stringify(window.billingRunID)},"statements":[`
  let first = true
  for await (const statement of commissionStatements(platform, window, holder, query.currency)) {
    let open = false
    const head = () => {
      const text = csv ? '' : `${first ? '' : ','}{"holder":${JSON.stringify(statement.holder)},"lines":[`
      first = false
      open = true
      return text
    }
    for await (const text of linesOf(statement.pages, commissionWire, csv)) yield open ? text : head() + text
    // Asked for every holder, one with no line in this run has no statement.
    if (!open && holder === null) continue
    const byCurrency = statement.totalsByCurrency().map((t) => ({ total: moneyToNumber(t.total), currency: t.currency }))
    const total = moneyToNumber(statement.total())
    // CSV: a total line per currency, then the statement's of every currency, each total in the commission column.
    const totalLine = (t: { total: number; currency: string }) => csvLine([statement.holder, 'total', ...Array(COMMISSION_COLUMNS.length - 4).fill(''), t.total, t.currency])
    yield (open ? '' : head()) + (csv ? [...byCurrency, { total, currency: '' }].map(totalLine).join('') : `],"total":${total},"totalsByCurrency":${JSON.stringify(byCurrency)}}`)
  }
  if (!csv) yield ']}'
}
