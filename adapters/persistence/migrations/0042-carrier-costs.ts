import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * The carrier's cost beside every charge and call (contract 16.2), and the index a margin sums
 * over: approved rows by customer, holding the date and what it adds up, so a margin by customer
 * reads a page of customers' rows from the index alone, in order, and a month of a million
 * features never leaves it.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0042-carrier-costs']
  await addColumns(db, dialect, catalogue.transactions, [...added.transactions!])
  await addColumns(db, dialect, catalogue.calls, [...added.calls!])
  await dialect.createCoveringIndex(db, {
    name: 'transactions_books_idx',
    table: 'transactions',
    key: 'customerID',
    covered: ['transactionDate', 'settles', 'amount', 'carrierCost', 'approved'],
    where: sql<boolean>`"approved" = 1`,
  })
}
