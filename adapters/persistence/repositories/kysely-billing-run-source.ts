import { sql } from 'kysely'
import { runCallFields, runCustomerFields, runFeatureFields, type RunCall, type RunCustomer, type RunFeature } from '../../../core/ports/run-fields.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { Resource } from '../../../core/fields/resource.js'
import type { BillingRunSource, MarkedFeature } from '../../../core/ports/billing-run-source.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { RowCodec } from '../row-codec.js'
import { selectedColumns, type SelectedColumns } from '../selected-columns.js'
import type { Db } from '../schema/tables.js'
import { callUnbilled, latestCovered } from './call-coverage.js'
import { stampLiteral } from './stamp-literal.js'

/** A resource narrowed to some of its stored fields: its codec reads and decodes only those. */
function narrowed(resource: Resource, names: readonly string[]): Resource {
  const fields = names.map((name) => {
    const f = resource.byName.get(name)
    if (!f || f.computed) throw new Error(`${resource.name}.${name} is not a stored field`)
    return f
  })
  return { ...resource, fields, columns: fields, byName: new Map(fields.map((f) => [f.name, f])) }
}

// Made once: codecs compile their decoder per resource object.
const customers = narrowed(catalogue.customers, runCustomerFields)
const features = narrowed(catalogue.features, runFeatureFields)
const calls = narrowed(catalogue.calls, runCallFields)
/** Customers a statement of `unbilledCalls` asks for, within every database's parameter limit. */
const CALL_CUSTOMERS = 500
/** The run's selections by dialect and table (each compiles a decoder). */
const selections = new WeakMap<DatabaseDialect, Map<string, SelectedColumns>>()

/** The reads of a billing run's batch: narrow rows (core/billing/run-fields.ts), one query each. */
export class KyselyBillingRunSource implements BillingRunSource {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** The run's columns of a table as this dialect selects them, made once per dialect (reads are made per transaction). */
  private columns(table: 'customers' | 'features' | 'calls'): SelectedColumns {
    let byTable = selections.get(this.dialect)
    if (!byTable) selections.set(this.dialect, (byTable = new Map()))
    let columns = byTable.get(table)
    if (!columns) {
      const resource = table === 'customers' ? customers : table === 'features' ? features : calls
      columns = selectedColumns(table, resource.fields, this.dialect.packedRead(table, resource.fields), new RowCodec(resource, this.dialect))
      byTable.set(table, columns)
    }
    return columns
  }

  /** The next customers by ID (through `lastID` when not null), unlocked (`BillingRunSource.customersAfter`). */
  async customersAfter(afterID: string, limit: number, lastID: string | null = null): Promise<RunCustomer[]> {
    const { select, decode } = this.columns('customers')
    // Decoded from exactly the run's customer fields.
    return (await this.page(afterID, limit, lastID).select(select).execute()).map((r) => decode(r) as unknown as RunCustomer)
  }

  /** Locks the next customers by ID as `getForUpdate` locks one (`BillingRunSource.lockCustomersAfter`). */
  async lockCustomersAfter(afterID: string, limit: number, lastID: string | null = null): Promise<string | null> {
    // SQLite's writer holds the file's lock for its whole transaction (begun immediate): no row to lock.
    if (!this.dialect.rowLocks) return null
    const rows = await this.page(afterID, limit, lastID).select('customers.id').forUpdate().execute()
    return rows.length === limit ? String(rows.at(-1)!.id) : null
  }

  async customerCountAfter(afterID: string): Promise<number> {
    const r = await this.db
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('customers.id', '>', this.dialect.encodeId(afterID))
      .executeTakeFirstOrThrow()
    return Number(r.count)
  }

  /**
   * The features of a page of customers, by customer, then ID, each with the mark its ledger was
   * reconciled with. One range of the customer index, in its own order, ending at the page's
   * last customer: a list of 500 IDs was 500 seeks, and ordering by ID alone sorted every batch
   * in a temporary B-tree (twice the cost of the query on SQLite).
   */
  async featuresOf(afterID: string, limit: number, lastID: string | null = null): Promise<MarkedFeature[]> {
    const { select, decode } = this.columns('features')
    const page = this.page(afterID, limit, lastID).select('customers.id')
    const rows = await this.db
      .selectFrom('features')
      .select(select)
      // A lookup by key per feature: as a join, Postgres hashed the whole marks table for every batch.
      .select((eb) => eb.selectFrom('ledger_reconciled').select('inputs').whereRef('ledger_reconciled.featureID', '=', 'features.id').as('reconciledInputs'))
      .where('features.customerID', '>', this.dialect.encodeId(afterID))
      .where('features.customerID', '<=', (eb) => eb.selectFrom(page.as('page')).select((p) => p.fn.max('page.id').as('last')))
      .orderBy('features.customerID')
      .orderBy('features.id')
      .execute()
    return rows.map((r) => ({ feature: decode(r) as RunFeature, mark: r.reconciledInputs ?? null }))
  }

  async unbilledCalls(customerIDs: readonly string[], before: string, callMark: number, since: string | null): Promise<RunCall[]> {
    const { select, decode } = this.columns('calls')
    const out: RunCall[] = []
    for (let i = 0; i < customerIDs.length; i += CALL_CUSTOMERS) {
      const chunk = customerIDs.slice(i, i + CALL_CUSTOMERS).map(Number)
      // Each customer's latest covered start: calls after it need no look-up of their row.
      const ends = latestCovered(this.db, this.dialect.inList('transactions.customerID', chunk))
      let q = this.db.selectFrom('calls').leftJoin(ends.as('cov'), 'cov.customerID', 'calls.customerID')
      // Calls started before the run's bound were all billed (run-call-mark.ts): not read again.
      // The run's bounds as literals: its batches' statement is planned once a connection (stamp-literal.ts).
      if (since !== null) q = q.where('calls.startTime', '>=', stampLiteral(since))
      const rows = await q
        .select(select)
        // One parameter for the list: one statement text, prepared once, whatever the batch's size.
        .where(this.dialect.inList('calls.customerID', chunk))
        .where('calls.rated', '=', 1)
        .where('calls.deleted', '=', 0)
        .where('calls.startTime', '<', stampLiteral(before))
        .where(sql`coalesce(${sql.ref('calls.callMark')}, 0)`, '<', callMark)
        .where(callUnbilled('calls', 'cov'))
        .orderBy('calls.id')
        .execute()
      for (const r of rows) out.push(decode(r) as unknown as RunCall)
    }
    // Chunks follow the customers' order, not the calls': the run bills them in ID order.
    if (customerIDs.length > CALL_CUSTOMERS) out.sort((a, b) => (a.id.length - b.id.length) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    return out
  }

  /** The customers of a page, unselected: `customersAfter` reads them, `featuresOf` its last ID, so the two cannot differ. */
  private page(afterID: string, limit: number, lastID: string | null) {
    const page = this.db.selectFrom('customers').where('customers.id', '>', this.dialect.encodeId(afterID)).orderBy('customers.id').limit(limit)
    return lastID === null ? page : page.where('customers.id', '<=', this.dialect.encodeId(lastID))
  }
}
