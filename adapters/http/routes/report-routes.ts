import type { H3Event } from 'h3'
import { add, moneyToNumber, moneyToNumberText, ZERO, type Money } from '../../../core/money/money.js'
import type { JournalDocument, MarginGrouping } from '../../../core/ports/books.js'
import type { PlatformContext } from '../../../core/platform.js'
import { journalLines, journalRange, runJournalScope } from '../../../core/reports/journal-report.js'
import { marginQuery, marginReport, type MarginLine, type MarginQuery } from '../../../core/reports/margin-report.js'
import type { CommissionWindow, JournalScope } from '../../../core/ports/books.js'
import type { CommissionLine } from '../../../core/reports/commission-lines.js'
import { commissionQuery, commissionStatements, commissionWindow, type CommissionQuery } from '../../../core/reports/commission-statement.js'
import { csvCell, csvLine, streamedAnswer, wantsCsv } from '../csv-response.js'
import type { Route } from '../route.js'
import { readQuery } from '../query.js'

const CSV = { 'text/csv': 'the same lines as CSV, with a header line and a closing total line' }
const JOURNAL_COLUMNS = ['date', 'documentType', 'document', 'customerID', 'account', 'accountCode', 'VATRate', 'net', 'VAT'] as const

/** The books' reports (contract 16.2, 16.4): expert level 3, JSON or CSV by `Accept`, streamed. */
export function reportRoutes(): Route[] {
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/reports/margin',
      doc: { summary: 'Margin: approved net revenue, carrier cost, margin and margin % by customer, carrier, featureType, callClass or month, with totals', kind: 'other', query: ['from', 'to', 'groupBy'], alternatives: CSV },
      async handler(event, ctx) {
        const query = marginQuery(readQuery(event, ['from', 'to', 'groupBy']))
        const csv = wantsCsv(event)
        return streamedAnswer(event, csv, marginPieces(ctx.platform, query, csv))
      },
    },
    {
      method: 'GET',
      path: '/commissionStatements',
      doc: { summary: "A billing run's commission statements (one per holder, or ?holder='s): lines of customer, account number, feature, saleType, type, basis, rate and commission, and a total", kind: 'other', query: ['billingRunID', 'holder'], alternatives: CSV },
      async handler(event, ctx) {
        const query = commissionQuery(readQuery(event, ['billingRunID', 'holder']))
        const csv = wantsCsv(event)
        return streamedAnswer(event, csv, await commissionAnswer(ctx.platform, query, csv))
      },
    },
    {
      method: 'GET',
      path: '/journal',
      doc: { summary: 'Accounting journal of the documents dated from..to: one line per document, account code and VAT rate', kind: 'other', query: ['from', 'to'], alternatives: CSV },
      async handler(event, ctx) {
        return journalAnswer(event, ctx.platform, journalRange(readQuery(event, ['from', 'to'])))
      },
    },
    {
      method: 'GET',
      path: '/billingRuns/:id/journal',
      doc: { summary: "Accounting journal of a billing run's invoices: one line per invoice, account code and VAT rate; sums to its invoices", kind: 'other', alternatives: CSV },
      async handler(event, ctx) {
        readQuery(event)
        return journalAnswer(event, ctx.platform, await runJournalScope(ctx.platform, ctx.params.id))
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
  return commissionPieces(platform, window, query.holder, csv)
}

const wireLine = (groupBy: MarginGrouping, l: MarginLine) => ({
  [groupBy]: l.key,
  revenue: moneyToNumber(l.revenue),
  cost: moneyToNumber(l.cost),
  margin: moneyToNumber(l.margin),
  marginPercent: l.marginPercent === null ? null : moneyToNumber(l.marginPercent),
})

async function* marginJson(query: ReturnType<typeof marginQuery>, report: Report): AsyncGenerator<string> {
  yield `{"from":${JSON.stringify(query.range.from)},"to":${JSON.stringify(query.range.to)},"groupBy":${JSON.stringify(query.groupBy)},"rows":[`
  yield* linesOf(report.pages, (l) => wireLine(query.groupBy, l), false)
  const { [query.groupBy]: _, ...totals } = wireLine(query.groupBy, report.totals())
  yield `],"totals":${JSON.stringify(totals)}}`
}

/** A margin line as CSV, as `csvLine` writes `wireLine`'s values, without the object, array and doubles between. */
const marginCsvLine = (l: MarginLine): string =>
  `${csvCell(l.key)},${moneyToNumberText(l.revenue)},${moneyToNumberText(l.cost)},${moneyToNumberText(l.margin)},${l.marginPercent === null ? '' : moneyToNumberText(l.marginPercent)}\r\n`

async function* marginCsv(groupBy: MarginGrouping, report: Report): AsyncGenerator<string> {
  yield csvLine([groupBy, 'revenue', 'cost', 'margin', 'marginPercent'])
  yield* linesOf(report.pages, (l) => wireLine(groupBy, l), marginCsvLine)
  yield csvLine(Object.values(wireLine(groupBy, { ...report.totals(), key: 'total' })))
}

/**
 * Pages of report lines as CSV lines (`csv`: true, or a function writing a line's), or as the
 * items of a JSON array (a comma before every page but the first); `seen` is shown each page as
 * it goes by (running totals).
 */
async function* linesOf<T>(pages: AsyncIterable<readonly T[]>, wire: (l: T) => object, csv: boolean | ((l: T) => string), seen?: (page: readonly T[]) => void): AsyncGenerator<string> {
  let first = true
  const csvOf = typeof csv === 'function' ? csv : (l: T) => csvLine(Object.values(wire(l)))
  for await (const page of pages) {
    if (page.length === 0) continue
    seen?.(page)
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
  let net: Money = ZERO
  let vat: Money = ZERO
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
  for await (const page of journalLines(platform, scope, csv)) {
    // Written by the database as these lines would be here (adapters/persistence/reports/invoice-journal-csv.ts).
    if ('csv' in page) {
      net = add(net, page.net)
      vat = add(vat, page.VAT)
      if (page.csv) yield page.csv
      continue
    }
    let text = ''
    page.forEach((d, accountCode, VATRate, lineNet, lineVAT) => {
      net = add(net, lineNet)
      vat = add(vat, lineVAT)
      if (csv) {
        if (d !== last) {
          last = d
          head = `${d.date},${d.documentType},${csvCell(d.document)},${d.customerID},${csvCell(d.account)},`
        }
        text += `${head}${cell(accountCode)},${cell(VATRate)},${moneyToNumberText(lineNet)},${moneyToNumberText(lineVAT)}\r\n`
      } else {
        const wire = { date: d.date, documentType: d.documentType, document: d.document, customerID: d.customerID, account: d.account, accountCode, VATRate, net: moneyToNumber(lineNet), VAT: moneyToNumber(lineVAT) }
        text += `${first ? '' : ','}${JSON.stringify(wire)}`
        first = false
      }
    })
    if (text) yield text
  }
  const totals = { net: moneyToNumber(net), VAT: moneyToNumber(vat), total: moneyToNumber(add(net, vat)) }
  yield csv ? csvLine(['total', '', '', '', '', '', '', totals.net, totals.VAT]) : `],"totals":${JSON.stringify(totals)}}`
}

const COMMISSION_COLUMNS = ['holder', 'role', 'customerID', 'accountNumber', 'featureID', 'saleType', 'transactionID', 'transactionType', 'type', 'basis', 'rate', 'commission'] as const

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
})

/**
 * A run's statements, one per holder with lines (or `holder`'s, even empty), each with its
 * lines and total, streamed holder by holder and page by page.
 */
async function* commissionPieces(platform: PlatformContext, window: CommissionWindow, holder: string | null, csv: boolean): AsyncGenerator<string> {
  yield csv ? csvLine(COMMISSION_COLUMNS) : `{"billingRunID":${JSON.stringify(window.billingRunID)},"statements":[`
  let first = true
  for await (const statement of commissionStatements(platform, window, holder)) {
    let total: Money = ZERO
    let open = false
    const head = () => {
      const text = csv ? '' : `${first ? '' : ','}{"holder":${JSON.stringify(statement.holder)},"lines":[`
      first = false
      open = true
      return text
    }
    for await (const text of linesOf(statement.pages, commissionWire, csv, (page) => (total = add(total, sumOf(page))))) yield open ? text : head() + text
    // Asked for every holder, one with no line in this run has no statement.
    if (!open && holder === null) continue
    yield (open ? '' : head()) + (csv ? csvLine([statement.holder, 'total', ...Array(COMMISSION_COLUMNS.length - 3).fill(''), moneyToNumber(total)]) : `],"total":${moneyToNumber(total)}}`)
  }
  if (!csv) yield ']}'
}

const sumOf = (lines: readonly CommissionLine[]): Money => lines.reduce((s, l) => add(s, l.commission), ZERO)
