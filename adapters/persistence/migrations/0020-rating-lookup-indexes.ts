import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'

/** The call classes' tariff and markup columns of a number as this migration found them (core/fields/call-classes.ts). */
const CLASS_COLUMNS = ['inbound', 'national', 'mobile', 'nongeographic', 'serviceNumbers', 'international', 'extendedInternational', 'surcharges']
  .flatMap((c) => [`${c}Tariff`, `${c}Markup`])
  .concat(['bespokeTariff1', 'bespokeTariff1Markup', 'bespokeTariff2', 'bespokeTariff2Markup'])
const defaultOf = (column: string) => `default${column[0].toUpperCase()}${column.slice(1)}`

/** What an import's number lookup reads of a number (`numbersByKeys`, repositories/rating-number-lookup.ts). */
export const NUMBER_LOOKUP_COLUMNS = ['id', 'customerID', 'number', 'CDRNumber', 'CDRNumber2', 'CDRNumber3', 'CDRNumber4', 'fallbackMarkup', ...CLASS_COLUMNS, 'isDropped']
/** What it reads of the number's customer: rating defaults and whether credit is watched. */
export const CUSTOMER_LOOKUP_COLUMNS = ['fallbackMarkup', ...CLASS_COLUMNS.map(defaultOf), 'creditLimit', 'creditLimitCalls', 'creditLimitOverdue', 'creditLimitUnsent', 'creditAlerts']

/**
 * An import's lookup of a batch's numbers by `numberKey`, joined to their customers, reads
 * covering indexes instead of the rows. Numbers and customers have over a hundred columns
 * each, of which the lookup reads about thirty, and their rows are several times the indexes'
 * size, so under an import's inserts the rows fell out of Postgres's buffers where the indexes
 * stay. A lookup of 1,000 keys took 5.0 µs a key of backend CPU on Postgres and 3.9 with both
 * indexes (4.4 with the customers' alone, 5.0 with the numbers' alone), and 5.0 against 3.7 on
 * SQLite; in a Postgres import the database's CPU fell by 6 µs a row (bench/RESULTS.md). The
 * covering index replaces the plain one on `numberKey`; the other `…Key` columns, rarely
 * asked, keep theirs.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await db.schema.dropIndex('numbers_numberKey_idx').execute()
  await dialect.createCoveringIndex(db, { name: 'numbers_lookup_idx', table: 'numbers', key: 'numberKey', covered: NUMBER_LOOKUP_COLUMNS, where: sql<boolean>`"isDropped" = 0` })
  await dialect.createCoveringIndex(db, { name: 'customers_lookup_idx', table: 'customers', key: 'id', covered: CUSTOMER_LOOKUP_COLUMNS })
}
