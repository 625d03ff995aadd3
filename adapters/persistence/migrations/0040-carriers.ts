import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns, createResourceTable } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'
import { CUSTOMER_LOOKUP_COLUMNS, NUMBER_LOOKUP_COLUMNS } from './0020-rating-lookup-indexes.js'

/**
 * Carriers (contract 17.1, 17.2): calls a carrier's allocation ignores, counted per file; the
 * destination tables prefixes are looked up in. An import's number lookup now reads
 * `carrierCallAllocation` of the number and its customer: the covering indexes (0020, 0027)
 * hold it too, or each row would be read again.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0040-carriers']
  await addColumns(db, dialect, catalogue.calls, [...added.calls!])
  await addColumns(db, dialect, catalogue.usageFiles, [...added.usageFiles!])
  await db.schema.dropIndex('numbers_lookup_idx').execute()
  await dialect.createCoveringIndex(db, {
    name: 'numbers_lookup_idx',
    table: 'numbers',
    key: 'numberKey',
    covered: [...NUMBER_LOOKUP_COLUMNS, 'carrierCallAllocation'],
    where: sql<boolean>`"isDropped" = 0`,
  })
  await db.schema.dropIndex('customers_lookup_idx').execute()
  await dialect.createCoveringIndex(db, {
    name: 'customers_lookup_idx',
    table: 'customers',
    key: 'id',
    covered: [...CUSTOMER_LOOKUP_COLUMNS, 'expectedSpend', 'carrierCallAllocation'],
  })
  await createResourceTable(db, dialect, catalogue.destinationTables)
  await createResourceTable(db, dialect, catalogue.destinations, { destinationTableID: 'destination_tables.id' })
  // One prefix once per table: the lookup's longest match must be one row.
  await db.schema.createIndex('destinations_table_prefix_key').unique().on('destinations').columns(['destinationTableID', 'prefix']).execute()
}
