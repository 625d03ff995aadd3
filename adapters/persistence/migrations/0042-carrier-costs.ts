import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * The carrier's cost beside every charge and call (contract 16.2), and the index the books'
 * reports (16.2-16.4) sum over: approved rows by date, holding what a margin by customer or
 * month adds up, so a month of a million features is read from the index alone.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0042-carrier-costs']
  await addColumns(db, dialect, catalogue.transactions, [...added.transactions!])
  await addColumns(db, dialect, catalogue.calls, [...added.calls!])
  await dialect.createCoveringIndex(db, {
    name: 'transactions_books_idx',
    table: 'transactions',
    key: 'transactionDate',
    covered: ['customerID', 'amount', 'carrierCost', 'settles', 'transactionType'],
    where: sql<boolean>`"approved" = 1`,
  })
}
