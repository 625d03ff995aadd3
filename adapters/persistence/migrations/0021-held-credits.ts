import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * A customer's held credit (contract 10.3) moves from 0012's column to a narrow table with a row
 * only while the customer holds some. A billing run settles every customer holding credit it
 * invoices, and writing the amount into the customer's row rewrote a page of that wide table
 * (about nine customers a page) for each: with a tenth of the customers holding credit, every
 * page of the table, 157 MB more written in a run of 200,000 customers (bench/RESULTS.md).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await db.schema
    .createTable('held_credits')
    .addColumn('customerID', dialect.idRefType, (c) => c.primaryKey())
    .addColumn('amount', dialect.types.bigint, (c) => c.notNull())
    .execute()
  await sql`insert into held_credits (${sql.ref('customerID')}, amount)
    select id, ${sql.ref('heldCredit')} from customers where ${sql.ref('heldCredit')} <> 0`.execute(db)
  await db.schema.alterTable('customers').dropColumn('heldCredit').execute()
}
