import { reconcileCarrierBill } from '../../core/carrier-bills/reconcile-bill.js'
import { addDestination } from '../../core/resources/add-destination.js'
import { importDestinations } from '../../core/destinations/import-destinations.js'
import { objectBody } from '../../core/input/object-body.js'
import type { InputOf, ShownOf, WireOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { getItem } from '../../core/resources/resources.js'
import { deleteItem } from '../../core/resources/removals.js'
import { parentScope } from '../../core/resources/scopes.js'
import { csvFileBatches } from '../../adapters/csv/csv-file.js'
import { reconciliationPieces } from '../../adapters/http/routes/carrier-bill-routes.js'
import { answerOf, type DocumentAnswer, type ReportOptions } from './reports-api.js'
import { create, readApi, readPage, resourceOf, shown, shownPage, toPage, type ListParams, type Page, type ReadApi } from './resource-api.js'
import { asText } from './usage-api.js'

/** CSV text given line by line (the header line first; a quoted field may go on over several lines). */
export type CsvLines = AsyncIterable<string> | Iterable<string>

/** Destination tables (contract 17.2): a carrier's (named by a call tariff's `locationLookupCarrier`) or `default`. */
export interface DestinationTablesApi extends ReadApi<'destinationTables'> {
  /** Creates a table; `name` is unique. */
  create(body: InputOf<'destinationTables'>): Promise<ShownOf<'destinationTables'>>
  /** Deletes the table and its prefixes; answers the table as it was. */
  delete(id: string): Promise<ShownOf<'destinationTables'>>
}

/** The prefixes of destination tables. */
export interface DestinationsApi {
  /** Adds one prefix (`prefix`, `chargeBand`, `callClass`, optional `description`) to the table; a prefix it has already is `unique_taken`. */
  create(destinationTableID: string, body: InputOf<'destinations'>): Promise<ShownOf<'destinations'>>
  /**
   * Adds the prefixes of a CSV given line by line (`prefix,chargeBand,callClass,description`,
   * header first, names in any order), all or nothing: a bad line, a prefix given twice or one the
   * table has fails the whole file naming its line. Answers as `POST .../destinations` with text/csv.
   */
  importFile(destinationTableID: string, lines: CsvLines): Promise<{ destinationTableID: string; imported: number }>
  /** One page of the table's prefixes; `{ prefix: '447' }` for that one. */
  listOf(destinationTableID: string, params?: ListParams<'destinations'>): Promise<Page<ShownOf<'destinations'>>>
  get(id: string): Promise<ShownOf<'destinations'>>
  /** Deletes one prefix; answers it as it was. */
  delete(id: string): Promise<ShownOf<'destinations'>>
}

type LineFields = 'line' | 'productCode' | 'reference' | 'description' | 'quantity' | 'cost' | 'periodFrom' | 'periodTo' | 'featureID' | 'expectedCost' | 'billedAmount'

/** A row of a reconciliation: the bill line (absent for `notOnCarrierBill`) and the feature; unset fields left out. */
export type ReconciliationLine = Partial<Pick<WireOf<'carrierBillLines'>, LineFields>>

/** `GET /carrierBills/<id>/reconciliation` as JSON (money as JSON numbers, as the API writes them). */
export interface CarrierBillReconciliation {
  readonly carrierBill: WireOf<'carrierBills'>
  readonly summary: {
    readonly matched: { readonly count: number; readonly carrierCost: number; readonly expectedCost: number; readonly billed: number }
    readonly costDiffers: { readonly count: number; readonly carrierCost: number; readonly expectedCost: number }
    readonly notBilled: { readonly count: number; readonly carrierCost: number }
    readonly notOnCarrierBill: { readonly count: number; readonly expectedCost: number }
  }
  readonly matched: ReconciliationLine[]
  readonly costDiffers: ReconciliationLine[]
  readonly notBilled: ReconciliationLine[]
  readonly notOnCarrierBill: { readonly featureID: string; readonly expectedCost: number }[]
}

/** Carriers' bills and their reconciliation (contract 17.4). */
export interface CarrierBillsApi extends ReadApi<'carrierBills'> {
  /**
   * Stores a carrier's bill for `carrier` (a `carriers` preset) and `period` (`YYYY-MM`), a CSV
   * given line by line (`productCode`, `reference`, `cost`; `description`, `quantity`,
   * `periodFrom`, `periodTo`), and reconciles it against that carrier's features active in the
   * month, in one transaction. Answers the bill with each outcome's count and totals.
   */
  create(carrier: string, period: string, lines: CsvLines): Promise<ShownOf<'carrierBills'>>
  /**
   * The bill's reconciliation: matched, costDiffers, notBilled and notOnCarrierBill, as the API's
   * JSON; with `{ format: 'csv' }` the CSV document (`Accept: text/csv`) a piece at a time.
   */
  reconciliation(id: string, options?: ReportOptions<'json'>): Promise<CarrierBillReconciliation>
  reconciliation(id: string, options: ReportOptions<'csv'>): Promise<AsyncIterable<string>>
  reconciliation(id: string, options?: ReportOptions): Promise<DocumentAnswer<CarrierBillReconciliation>>
}

export function destinationTablesApi(ctx: PlatformContext): DestinationTablesApi {
  return {
    ...readApi(ctx, 'destinationTables'),
    create: (body) => create(ctx, 'destinationTables', body),
    delete: (id) => shown('destinationTables', deleteItem(ctx, 'destinationTables', id)),
  }
}

export function destinationsApi(ctx: PlatformContext): DestinationsApi {
  const { get } = readApi(ctx, 'destinations')
  return {
    create: (tableID, body) => shown('destinations', addDestination(ctx, tableID, () => objectBody(body))),
    importFile: async (tableID, lines) => {
      await getItem(ctx, resourceOf(ctx, 'destinationTables'), tableID)
      return { destinationTableID: tableID, imported: await importDestinations(ctx, tableID, csvFileBatches(asText(lines))) }
    },
    listOf: async (tableID, params) =>
      shownPage('destinations', toPage(await readPage(ctx, 'destinations', params, { scope: () => parentScope(ctx.store, 'destinationTables', tableID, 'destinationTableID') }))),
    get,
    delete: (id) => shown('destinations', deleteItem(ctx, 'destinations', id)),
  }
}

export function carrierBillsApi(ctx: PlatformContext): CarrierBillsApi {
  const bills = resourceOf(ctx, 'carrierBills')
  return {
    ...readApi(ctx, 'carrierBills'),
    create: (carrier, period, lines) => shown('carrierBills', reconcileCarrierBill(ctx, carrier ?? null, period ?? null, csvFileBatches(asText(lines)))),
    reconciliation: (async (id: string, options?: ReportOptions) => {
      const bill = await getItem(ctx, bills, id)
      return answerOf(options, (csv) => reconciliationPieces(ctx, bills, resourceOf(ctx, 'carrierBillLines'), bill, csv))
    }) as CarrierBillsApi['reconciliation'],
  }
}
