import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * The index a margin sums over (contract 16.2), in place of 0042's: the billed rows only (its
 * condition spelled as `margin-sums.ts` spells them), by customer and date, holding what a
 * margin adds up. 0042's held every approved row by customer alone, so a page's statement, once
 * Postgres planned it for any page (a prepared statement's generic plan, from the sixth page on
 * a connection), found the date better bounded in `transactions_customer_idx` and read a heap
 * row for every ledger row; SQLite, with STAT4 statistics, chose that index for some pages too
 * (bench/RESULTS.md, session 33). Nothing else reads 0042's index by name, and
 * `transactions_customer_idx` (customer, approved, date) answers what its condition served.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await dialect.createCoveringIndex(db, {
    name: 'transactions_margin_idx',
    table: 'transactions',
    key: ['customerID', 'transactionDate'],
    covered: ['amount', 'carrierCost'],
    where: sql<boolean>`"approved" = 1 and coalesce("settles", 0) = 0`,
  })
  await sql`drop index if exists transactions_books_idx`.execute(db)
}
