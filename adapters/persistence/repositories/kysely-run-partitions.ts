import { sql, type Selectable } from 'kysely'
import type { CustomerWeight, PartitionStatus, PartitionStep, PartitionTotals, PlannedPartition, RunPartition, RunPartitions } from '../../../core/ports/run-partitions.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { BillingRunPartitionsTable, Db, Integer } from '../schema/tables.js'

const TABLE = 'billing_run_partitions'

/**
 * A run's partitions as rows. A claim is one UPDATE of the first free partition, found by a
 * subquery that (Postgres) locks it `FOR UPDATE SKIP LOCKED`: workers claiming at once each take
 * a different partition instead of queueing on the same row, and the UPDATE re-checks the lease,
 * so two can never both hold one. SQLite serialises writers, so the same statement without the
 * lock is as safe there; its runs are one partition (`parallel` false).
 */
export class KyselyRunPartitions implements RunPartitions {
  readonly parallel: boolean

  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
    private readonly now: () => number = Date.now,
  ) {
    this.parallel = dialect.rowLocks
  }

  private ms(value: number): Integer {
    return this.dialect.encodeBigint(BigInt(value))
  }

  async create(billingRunID: string, partitions: readonly (PlannedPartition & { readonly status: PartitionStatus })[]): Promise<void> {
    await this.insert(billingRunID, partitions)
  }

  private async insert(billingRunID: string, partitions: readonly (PlannedPartition & { readonly status: PartitionStatus })[]): Promise<void> {
    const id = (v: string) => this.dialect.encodeId(v)
    const rows = partitions.map((p) => ({
      billingRunID: id(billingRunID),
      status: p.status,
      afterCustomerID: id(p.afterCustomerID),
      lastCustomerID: p.lastCustomerID === null ? null : id(p.lastCustomerID),
      progressCustomerID: id(p.afterCustomerID),
      customersTotal: p.customersTotal,
    }))
    // A few hundred rows a statement keeps SQLite within its parameter limit.
    for (let i = 0; i < rows.length; i += 500) await this.db.insertInto(TABLE).values(rows.slice(i, i + 500)).execute()
  }

  async claim(billingRunID: string, holder: string, ttlMs: number): Promise<RunPartition | null> {
    const now = this.now()
    let free = this.db
      .selectFrom(TABLE)
      .select('id')
      .where('billingRunID', '=', this.dialect.encodeId(billingRunID))
      .where('status', '!=', 'Done')
      .where('leaseExpiresAt', '<', this.ms(now))
      .orderBy('id')
      .limit(1)
    if (this.dialect.rowLocks) free = free.forUpdate().skipLocked()
    const row = await this.db
      .updateTable(TABLE)
      .set({ holder, leaseExpiresAt: this.ms(now + ttlMs) })
      .where('id', 'in', free)
      .where('leaseExpiresAt', '<', this.ms(now))
      .returningAll()
      .executeTakeFirst()
    return row ? this.decode(row) : null
  }

  async advance(partitionID: string, holder: string, ttlMs: number, step: PartitionStep): Promise<boolean> {
    const r = await this.db
      .updateTable(TABLE)
      .set((eb) => ({
        progressCustomerID: this.dialect.encodeId(step.progressCustomerID),
        customersDone: eb('customersDone', '+', step.customers),
        invoiceCount: eb('invoiceCount', '+', step.invoices),
        ...(step.done ? { status: 'Done' as const, holder: null, leaseExpiresAt: 0 } : { leaseExpiresAt: this.ms(this.now() + ttlMs) }),
      }))
      .where('id', '=', this.dialect.encodeId(partitionID))
      .where('holder', '=', holder)
      .where('status', '=', 'Open')
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  async split(partitionID: string, holder: string, partitions: readonly PlannedPartition[]): Promise<boolean> {
    const planning = await this.db
      .deleteFrom(TABLE)
      .where('id', '=', this.dialect.encodeId(partitionID))
      .where('holder', '=', holder)
      .where('status', '=', 'Planning')
      .returning('billingRunID')
      .executeTakeFirst()
    if (!planning) return false
    await this.insert(String(planning.billingRunID), partitions.map((p) => ({ ...p, status: 'Open' as const })))
    return true
  }

  async restart(billingRunID: string): Promise<void> {
    await this.db
      .updateTable(TABLE)
      .set((eb) => ({ status: 'Open' as const, progressCustomerID: eb.ref('afterCustomerID'), customersDone: 0, invoiceCount: 0, holder: null, leaseExpiresAt: 0 }))
      .where('billingRunID', '=', this.dialect.encodeId(billingRunID))
      .execute()
  }

  async release(partitionID: string, holder: string): Promise<void> {
    await this.db.updateTable(TABLE).set({ holder: null, leaseExpiresAt: 0 }).where('id', '=', this.dialect.encodeId(partitionID)).where('holder', '=', holder).execute()
  }

  async totals(billingRunID: string): Promise<PartitionTotals> {
    const open = sql`case when ${sql.ref('status')} <> 'Done' then 1 else 0 end`
    const r = await this.db
      .selectFrom(TABLE)
      .select([
        sql<string>`count(*)`.as('partitions'),
        sql<string>`coalesce(sum(${open}), 0)`.as('open'),
        sql<string>`coalesce(sum(case when ${sql.ref('status')} <> 'Done' and ${sql.ref('leaseExpiresAt')} >= ${this.ms(this.now())} then 1 else 0 end), 0)`.as('active'),
        sql<string>`coalesce(sum(case when ${sql.ref('status')} = 'Planning' and ${sql.ref('leaseExpiresAt')} >= ${this.ms(this.now())} then 1 else 0 end), 0)`.as('planning'),
        sql<string>`coalesce(sum(case when ${sql.ref('customersDone')} > ${sql.ref('customersTotal')} then ${sql.ref('customersDone')} else ${sql.ref('customersTotal')} end), 0)`.as('customersTotal'),
        sql<string>`coalesce(sum(${sql.ref('customersDone')}), 0)`.as('customersDone'),
        sql<string>`coalesce(sum(${sql.ref('invoiceCount')}), 0)`.as('invoiceCount'),
      ])
      .where('billingRunID', '=', this.dialect.encodeId(billingRunID))
      .executeTakeFirstOrThrow()
    return {
      partitions: Number(r.partitions),
      open: Number(r.open),
      active: Number(r.active),
      planning: Number(r.planning) > 0,
      customersTotal: Number(r.customersTotal),
      customersDone: Number(r.customersDone),
      invoiceCount: Number(r.invoiceCount),
    }
  }

  async customerWeights(afterID: string, limit: number): Promise<CustomerWeight[]> {
    // A count per customer on the features' customer index: no join of the two tables to sort.
    const rows = await this.db
      .selectFrom('customers')
      .select(['customers.id', (eb) => eb.selectFrom('features').select((f) => f.fn.countAll().as('n')).whereRef('features.customerID', '=', 'customers.id').as('features')])
      .where('customers.id', '>', this.dialect.encodeId(afterID))
      .orderBy('customers.id')
      .limit(limit)
      .execute()
    return rows.map((r) => ({ id: String(r.id), features: Number(r.features) }))
  }

  private decode(r: Selectable<BillingRunPartitionsTable>): RunPartition {
    return {
      id: String(r.id),
      billingRunID: String(r.billingRunID),
      status: r.status,
      afterCustomerID: String(r.afterCustomerID),
      lastCustomerID: r.lastCustomerID === null ? null : String(r.lastCustomerID),
      progressCustomerID: String(r.progressCustomerID),
      customersTotal: Number(r.customersTotal),
      customersDone: Number(r.customersDone),
      invoiceCount: Number(r.invoiceCount),
    }
  }
}
