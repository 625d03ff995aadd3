import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { UNNUMBERED_EVENTS } from '../dialect/event-numbers.js'
import { createResourceTable } from '../schema/columns.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * Where events wait for the IDs readers page by (dialect/event-numbers.ts): Postgres appends
 * them here and numbers them into `events` as they commit. Made on every dialect, so that an
 * archive restores into either (SQLite numbers a restored Postgres archive's waiting events on
 * the next read). Its columns are `events`' (a later column of events goes on both tables).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await createResourceTable(db, dialect, { ...catalogue.events, table: UNNUMBERED_EVENTS })
}
