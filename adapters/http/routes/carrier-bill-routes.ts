import { featuresNotOnBill, reconcileCarrierBill } from '../../../core/carrier-bills/reconcile-bill.js'
import { moneyToNumber, type Money } from '../../../core/money/money.js'
import type { Item } from '../../../core/fields/item.js'
import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import type { PlatformContext } from '../../../core/platform.js'
import { getItem } from '../../../core/resources/resources.js'
import { csvFileBatches } from '../../csv/csv-file.js'
import { assertCsv, bodyText } from '../lines.js'
import { apiPath } from '../mount-prefix.js'
import { readQuery } from '../query.js'
import { json } from '../respond.js'
import { csvCell, csvLine } from '../../../core/documents/csv-cells.js'
import { streamedAnswer, wantsCsv } from '../csv-response.js'
import type { Route } from '../route.js'
import { getRoute, listRoute } from './resource-routes.js'

const OUTCOMES = { matched: ['matched', 'costDiffers'], costDiffers: ['costDiffers'], notBilled: ['notBilled'] } as const
const LINE_FIELDS = ['line', 'productCode', 'reference', 'description', 'quantity', 'cost', 'periodFrom', 'periodTo', 'featureID', 'expectedCost', 'billedAmount'] as const
const PAGE = 2000

/** Carriers' bills and their reconciliation (contract 17.4): expert level 3, as the books' other reports. */
export function carrierBillRoutes(bills: Resource, lines: Resource): Route[] {
  const routes: Route[] = [
    {
      method: 'POST',
      path: '/carrierBills',
      streamsBody: true,
      doc: { summary: "Store a carrier's bill (text/csv) for ?carrier= and ?period=YYYY-MM and reconcile it against that carrier's features", resource: bills.name, kind: 'create', query: ['carrier', 'period'], contentType: 'text/csv' },
      async handler(event, ctx) {
        const q = readQuery(event, ['carrier', 'period'])
        assertCsv(event, "the carrier's bill")
        const bill = await reconcileCarrierBill(ctx.platform, q.get('carrier'), q.get('period'), csvFileBatches(bodyText(event)))
        return json(event, 201, toWire(bills, bill), { location: apiPath(event, `/carrierBills/${bill.id}`) })
      },
    },
    listRoute(bills, { path: '/carrierBills', summary: "List carriers' bills" }),
    getRoute(bills),
    {
      method: 'GET',
      path: '/carrierBills/:id/reconciliation',
      doc: { summary: 'The reconciliation: matched, costDiffers, notBilled, notOnCarrierBill with counts and totals (JSON, or CSV by Accept: text/csv)', kind: 'other' },
      async handler(event, ctx) {
        readQuery(event)
        const bill = await getItem(ctx.platform, bills, ctx.params.id)
        const csv = wantsCsv(event)
        return streamedAnswer(event, csv, reconciliationPieces(ctx.platform, bills, lines, bill, csv))
      },
    },
  ]
  return routes.map((route) => ({ ...route, access: 'expertLevel3' as const }))
}

/** A bill's reconciliation as answered (JSON or CSV), a piece at a time: the route's, and the library's. */
export const reconciliationPieces = (platform: PlatformContext, bills: Resource, lines: Resource, bill: Item, csv: boolean): AsyncGenerator<string> =>
  csv ? csvPieces(platform, bills, lines, bill) : jsonPieces(platform, bills, lines, bill)

/** A bill's rows of some outcomes, a page at a time: the response never holds the bill. */
async function* rowsOf(platform: PlatformContext, billID: string, outcomes: readonly string[]): AsyncGenerator<Item[]> {
  const repo = platform.store.repository('carrierBillLines')
  for (let after: string | undefined; ; ) {
    const page = await repo.list({
      where: [
        { op: 'eq', column: 'carrierBillID', value: billID },
        { op: 'in', column: 'outcome', values: outcomes },
      ],
      idAfter: after,
      limit: PAGE,
    })
    if (page.length === 0) return
    yield page as Item[]
    after = page.at(-1)!.id
  }
}

/** Each section's count and totals, as the bill stores them: JSON's `summary`, CSV's total lines. */
const summaryOf = (w: Record<string, unknown>) => ({
  matched: { count: w.matchedCount, carrierCost: w.matchedCarrierCost, expectedCost: w.matchedExpectedCost, billed: w.matchedBilled },
  costDiffers: { count: w.costDiffersCount, carrierCost: w.costDiffersCarrierCost, expectedCost: w.costDiffersExpectedCost },
  notBilled: { count: w.notBilledCount, carrierCost: w.notBilledCost },
  notOnCarrierBill: { count: w.notOnCarrierBillCount, expectedCost: w.notOnCarrierBillExpectedCost },
})

async function* jsonPieces(platform: PlatformContext, bills: Resource, lines: Resource, bill: Item): AsyncGenerator<string> {
  const w = toWire(bills, bill) as Record<string, unknown>
  const summary = summaryOf(w)
  yield `{"carrierBill":${JSON.stringify(w)},"summary":${JSON.stringify(summary)}`
  for (const [name, outcomes] of Object.entries(OUTCOMES)) {
    yield `,${JSON.stringify(name)}:[`
    let first = true
    for await (const page of rowsOf(platform, bill.id, outcomes)) {
      const text = page.map((r) => JSON.stringify(entry(toWire(lines, r) as Record<string, unknown>))).join(',')
      yield first ? text : `,${text}`
      first = false
    }
    yield ']'
  }
  yield ',"notOnCarrierBill":['
  let first = true
  for await (const page of notOnBill(platform, bill)) {
    const text = page.map((f) => JSON.stringify({ featureID: f.featureID, expectedCost: moneyToNumber(f.expectedCost) })).join(',')
    yield first ? text : `,${text}`
    first = false
  }
  yield ']}'
}

/**
 * The features no line matched, as stored when the bill was posted (the same facts as its
 * `notOnCarrierBillCount`). A bill posted before they were stored has none while it counted
 * some: those are matched again (`featuresNotOnBill`), as they were then.
 */
async function* notOnBill(platform: PlatformContext, bill: Item): AsyncGenerator<{ featureID: string; expectedCost: Money }[]> {
  let stored = false
  for (let after: string | null = null; ; ) {
    const page = await platform.store.carriers.notOnBill(bill.id, after, PAGE)
    if (page.length === 0) break
    stored = true
    yield page
    after = page.at(-1)!.featureID
  }
  if (stored || !Number(bill.notOnCarrierBillCount)) return
  yield* featuresNotOnBill(platform, { id: bill.id, carrier: String(bill.carrier), period: String(bill.period) })
}

/** One row as the reconciliation lists it: the bill line (absent for notOnCarrierBill) and the feature. */
const entry = (w: Record<string, unknown>) => Object.fromEntries(LINE_FIELDS.filter((f) => w[f] !== null && w[f] !== undefined).map((f) => [f, w[f]]))

/**
 * The reconciliation as CSV: a row per line (its outcome; a costDiffers line once, as
 * `costDiffers`), a row per feature not on the bill, then a closing total line per section,
 * `total matched` (costDiffers lines counted in it, as JSON's `matched` lists them),
 * `total costDiffers`, `total notBilled` and `total notOnCarrierBill`: its count in `line`, its
 * sums in `cost` (the carrier's), `expectedCost` and `billedAmount`, empty where the section has
 * none. The figures are JSON's `summary`.
 */
async function* csvPieces(platform: PlatformContext, bills: Resource, lines: Resource, bill: Item): AsyncGenerator<string> {
  yield `outcome,${LINE_FIELDS.join(',')}\r\n`
  for await (const page of rowsOf(platform, bill.id, ['matched', 'costDiffers', 'notBilled'])) {
    yield page
      .map((r) => {
        const w = toWire(lines, r) as Record<string, unknown>
        return [w.outcome, ...LINE_FIELDS.map((f) => w[f])].map(csvCell).join(',') + '\r\n'
      })
      .join('')
  }
  for await (const page of notOnBill(platform, bill)) {
    yield page.map((f) => ['notOnCarrierBill', ...LINE_FIELDS.map((c) => (c === 'featureID' ? f.featureID : c === 'expectedCost' ? moneyToNumber(f.expectedCost) : null))].map(csvCell).join(',') + '\r\n').join('')
  }
  const summary: Record<string, Record<string, unknown>> = summaryOf(toWire(bills, bill) as Record<string, unknown>)
  let totals = ''
  for (const [name, t] of Object.entries(summary)) {
    const figure: Record<string, unknown> = { line: t.count, cost: t.carrierCost, expectedCost: t.expectedCost, billedAmount: t.billed }
    totals += csvLine([`total ${name}`, ...LINE_FIELDS.map((f) => figure[f])])
  }
  yield totals
}
