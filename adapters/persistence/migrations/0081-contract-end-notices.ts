import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

const added = laterColumns['0081-contract-end-notices']

/**
 * End-of-contract notices (core/contract-ends): on customers, numbers and services, the date the
 * `contract-end-notices` job announced the item's `contractEndDate` (`contractEndNoticeDate`) and
 * the end date it announced (`contractEndNoticeFor`). Nothing is backfilled: nothing has
 * been announced yet, so the first run announces every item already within its notice days. The
 * job reads each table daily by its end date: an index of it, partial since most rows have none,
 * finds the few in the window without reading the table.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  for (const resource of ['customers', 'numbers', 'services'] as const) {
    const { table } = catalogue[resource]
    await addColumns(db, dialect, catalogue[resource], [...added[resource]!])
    await db.schema.createIndex(`${table}_contract_end_idx`).on(table).column('contractEndDate').where(sql.ref('contractEndDate'), 'is not', null).execute()
  }
}
