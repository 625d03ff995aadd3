import { randomUUID } from 'node:crypto'
import { CompiledQuery } from 'kysely'
import type { Actor } from '../../../core/ports/change-log.js'
import type { RecordedChanges } from '../../../core/ports/store.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { eventRow, historyRow } from './kysely-change-log.js'

/**
 * What an item's ID is before the database gives it one, in the history entries and events
 * written of it ahead of its insert (`recordedInsertQuery`). Random for each process: no value a
 * client sends can hold it, so every place it appears in their text is the ID's.
 */
export const ID_STAND_IN = `id-${randomUUID()}`

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
/** The ID the insert took, as the statement's other inserts refer to it. */
const NEW_ID = '(select "id" from "created")'
const NEW_ID_TEXT = '(select "id"::text from "created")'

/**
 * One statement (writable common table expressions, Postgres) that inserts `row` into `table`
 * with the history entries and events that record it, and answers the ID the insert took. Sent
 * outside a transaction it commits alone, all or nothing: a create is one round trip instead of
 * four (begin, the insert, its entry and event, commit; bench/create-customers.ts).
 *
 * The entries and events were written from the item with `ID_STAND_IN` as its ID: wherever it
 * appears the statement puts the ID the insert took. Their rows are the change log's
 * (`historyRow`, `eventRow`).
 */
export function recordedInsertQuery(dialect: DatabaseDialect, table: string, row: Readonly<Record<string, unknown>>, changes: RecordedChanges, actor: Actor): CompiledQuery {
  const params: unknown[] = []
  const p = (value: unknown) => {
    params.push(value)
    return dialect.placeholder(params.length)
  }
  const id = (value: string | null) => (value === ID_STAND_IN ? NEW_ID : p(value === null ? null : dialect.encodeId(value)))
  const text = (value: string) => value.split(ID_STAND_IN).map(p).join(` || ${NEW_ID_TEXT} || `)
  /** An insert of `rows` (by column), with IDs and texts that may hold the stand-in through `id` and `text`. */
  const inserted = (into: string, rows: readonly Record<string, unknown>[], idColumns: readonly string[] = [], textColumns: readonly string[] = []) => {
    const columns = Object.keys(rows[0])
    const value = (row: Record<string, unknown>, c: string) =>
      idColumns.includes(c) ? id(row[c] as string | null) : textColumns.includes(c) ? text(row[c] as string) : p(row[c])
    const values = rows.map((r) => `(${columns.map((c) => value(r, c)).join(', ')})`)
    return `insert into ${quote(into)} (${columns.map(quote).join(', ')}) values ${values.join(', ')}`
  }
  const insert = Object.keys(row).length ? inserted(table, [row]) : `insert into ${quote(table)} default values`
  const parts = [`"created" as (${insert} returning "id")`]
  if (changes.entries.length) parts.push(`"entries" as (${inserted('history', changes.entries.map((e) => historyRow(e, actor)), ['resourceID', 'customerID'], ['changes'])})`)
  if (changes.events.length) parts.push(`"events" as (${inserted(dialect.eventsAppendedTo, changes.events.map(eventRow), [], ['data'])})`)
  return CompiledQuery.raw(`with ${parts.join(', ')} select "id"::text as "id" from "created"`, params)
}
