import { CompiledQuery, sql } from 'kysely'
import type { DatabaseDialect } from './dialect/dialect.js'
import { quoteIdent } from './dialect/quote.js'
import { EACH_ROW } from './statement-cache.js'
import type { Db } from './schema/tables.js'
import type { WriteAhead } from './bulk-writes.js'

/** Rows an `updateEach` statement sets: a few values and an ID each, well under the parameter limits. */
const UPDATE_CHUNK = 200
/** Rows a columnar statement sets (Postgres): an array per column, a few parameters whatever the count. */
const COLUMNAR_CHUNK = 5_000

/** A column `updateEach` sets, with the type its values are cast to. */
export interface EachColumn {
  readonly name: string
  readonly type: 'bigint' | 'text'
}

/**
 * Sets each row's own values, a chunk of rows a statement (`update ... from` a list of `select`
 * rows, which both databases take): a billing run settles thousands of accounts a batch, and a
 * statement per row was most of the allocation's time on Postgres. Where the dialect sends
 * columns as arrays (Postgres: `update … from unnest(…)`), a statement of 5,000 rows and one
 * parameter a column: a list of 200 selects cost Postgres more to parse and plan than the
 * update itself (an approval's invoices, bench/review-run.ts). IDs and values come encoded.
 */
export async function updateEach(
  db: Db,
  dialect: DatabaseDialect,
  table: string,
  columns: readonly EachColumn[],
  rows: readonly { id: unknown; values: unknown[] }[],
  send?: WriteAhead,
): Promise<void> {
  const typeName = (c: EachColumn) => (c.type === 'bigint' ? dialect.types.bigint : 'text')
  const rowsSql = dialect.columnarRowsSql([dialect.idRefType, ...columns.map(typeName)], 'v')
  if (rowsSql) {
    const sets = columns.map((c, k) => `${quoteIdent(c.name)} = "v"."column${k + 2}"`).join(', ')
    const columnar = `update ${quoteIdent(table)} set ${sets} from ${rowsSql} where ${quoteIdent(table)}."id" = "v"."column1"`
    // With `send` (a pipelined transaction's), the statements go at once, ahead of what the
    // transaction sends next, and are answered together.
    const sent: Promise<unknown>[] = []
    for (let i = 0; i < rows.length; i += COLUMNAR_CHUNK) {
      const chunk = rows.slice(i, i + COLUMNAR_CHUNK)
      const parameters = [chunk.map((r) => r.id), ...columns.map((_, k) => chunk.map((r) => r.values[k]))].map((values) => dialect.arrayParameter(values))
      const query = CompiledQuery.raw(columnar, parameters)
      if (send) sent.push(send(query))
      else await db.executeQuery(query)
    }
    await Promise.all(sent)
    return
  }
  if (dialect.insertsEachRow) {
    // SQLite on a connection of its own: one prepared one-row UPDATE run for every row in one
    // call to the driver (`EACH_ROW`); building and compiling a list of 200 selects a statement
    // was most of the CPU of an approval's invoices (bench/review-run.ts).
    const sets = columns.map((c, k) => `${quoteIdent(c.name)} = ${dialect.placeholder(k + 1)}`).join(', ')
    const text = `${EACH_ROW}update ${quoteIdent(table)} set ${sets} where ${quoteIdent('id')} = ${dialect.placeholder(columns.length + 1)}`
    if (rows.length) await db.executeQuery(CompiledQuery.raw(text, [...columns.map((_, k) => rows.map((r) => r.values[k])), rows.map((r) => r.id)]))
    return
  }
  const idType = sql.raw(dialect.idRefType)
  const typeOf = (c: EachColumn) => sql.raw(typeName(c))
  for (let i = 0; i < rows.length; i += UPDATE_CHUNK) {
    const chunk = rows.slice(i, i + UPDATE_CHUNK)
    const selects = chunk.map((r, n) =>
      n === 0
        ? sql`select ${r.id} as ${sql.ref('id')}, ${sql.join(columns.map((c, k) => sql`${r.values[k]} as ${sql.ref(`v${k}`)}`))}`
        : sql`select ${sql.join([r.id, ...r.values])}`,
    )
    const sets = columns.map((c, k) => sql`${sql.ref(c.name)} = cast(${sql.ref(`v.v${k}`)} as ${typeOf(c)})`)
    await sql`update ${sql.table(table)} set ${sql.join(sets)} from (${sql.join(selects, sql` union all `)}) as v where ${sql.ref(`${table}.id`)} = cast(${sql.ref('v.id')} as ${idType})`.execute(db)
  }
}
