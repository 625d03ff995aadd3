import type { AnyDb } from '../schema/tables.js'
import { sql, type RawBuilder } from 'kysely'
import type { Database } from '../connect.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { TableShape } from '../dialect/snapshot.js'
import { ID_COUNTER_COLUMNS, ID_COUNTERS, idCounterRows } from './id-counters.js'

/** A stored value as text; null is NULL. */
export type Cell = string | null

/** One table of a snapshot: its columns, then its rows in batches, in key order (or, last, the tables' ID counters, named ID_COUNTERS). */
export interface SnapshotTable {
  readonly table: string
  readonly columns: readonly string[]
  readonly batches: AsyncIterable<Cell[][]>
}

export interface SnapshotSummary {
  readonly tables: number
  readonly rows: number
}

/**
 * Reads every table of the database (listed by the database itself, so new tables come
 * along) inside one read-only snapshot transaction, and hands them to `visit` one at a time,
 * then the ID counters (id-counters.ts), so that a restore does not give out deleted rows' IDs
 * again. Rows come in keyset batches of `batchSize` (by primary key): no table is held in memory.
 */
export async function exportSnapshot(
  database: Database,
  visit: (table: SnapshotTable) => Promise<void>,
  batchSize = 1000,
): Promise<SnapshotSummary> {
  const { db, dialect } = database
  return dialect.readSnapshot(db, async (trx) => {
    let rows = 0
    const tables = await dialect.listTables(trx)
    for (const table of tables) {
      const shape = await dialect.describeTable(trx, table)
      const counted = async function* () {
        for await (const batch of batches(trx, dialect, table, shape, batchSize)) {
          rows += batch.length
          yield batch
        }
      }
      await visit({ table, columns: shape.columns, batches: counted() })
    }
    const counters = idCounterRows(await dialect.readIdCounters(trx))
    await visit({ table: ID_COUNTERS, columns: ID_COUNTER_COLUMNS, batches: (async function* () { yield counters })() })
    return { tables: tables.length, rows }
  })
}

async function* batches(trx: AnyDb, dialect: DatabaseDialect, table: string, shape: TableShape, size: number) {
  const select = sql.join(shape.columns.map((c) => dialect.snapshotColumn(c)))
  const key = shape.primaryKey
  // Without a primary key, offset paging over every column: stable inside the snapshot.
  // Qualified, so that Postgres orders by the column and not by its text alias.
  const order = sql.join((key.length ? key : shape.columns).map((c) => sql.id(table, c)))
  let after: unknown[] | null = null
  for (let offset = 0; ; offset += size) {
    let where: RawBuilder<unknown> = sql``
    if (after && key.length) where = sql`where (${sql.join(key.map((c) => sql.id(c)))}) > (${sql.join(after)})`
    const paging = key.length ? sql`limit ${size}` : sql`limit ${size} offset ${offset}`
    const { rows } = await sql<Record<string, unknown>>`select ${select} from ${sql.id(table)} ${where} order by ${order} ${paging}`.execute(trx)
    if (rows.length === 0) return
    yield rows.map((row) => shape.columns.map((c) => toCell(row[c])))
    if (rows.length < size) return
    const last = rows[rows.length - 1]
    after = key.map((c) => last[c])
  }
}

function toCell(value: unknown): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`
  return String(value)
}
