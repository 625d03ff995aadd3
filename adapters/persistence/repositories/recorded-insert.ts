import { randomUUID } from 'node:crypto'
import { CompiledQuery } from 'kysely'
import type { Actor } from '../../../core/ports/change-log.js'
import type { RecordedChanges } from '../../../core/ports/store.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * What an item's ID is before the database gives it one, in the history entries and events
 * written of it ahead of its insert (`recordedInsertQuery`). Random for each process: no value a
 * client sends can hold it, so every place it appears in their text is the ID's.
 */
export const ID_STAND_IN = `id-${randomUUID()}`

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
const HISTORY_COLUMNS = ['resource', 'resourceID', 'customerID', 'action', 'changes', 'apiKeyName', 'requestID', 'createdStamp', 'updatedStamp'].map(quote).join(', ')
const EVENT_COLUMNS = ['type', 'data', 'createdStamp', 'updatedStamp'].map(quote).join(', ')
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
 * appears the statement puts the ID the insert took. Their columns are written as
 * KyselyChangeLog.append writes them.
 */
export function recordedInsertQuery(dialect: DatabaseDialect, table: string, row: Readonly<Record<string, unknown>>, changes: RecordedChanges, actor: Actor): CompiledQuery {
  const params: unknown[] = []
  const p = (value: unknown) => {
    params.push(value)
    return dialect.placeholder(params.length)
  }
  const id = (value: string | null) => (value === ID_STAND_IN ? NEW_ID : p(value === null ? null : dialect.encodeId(value)))
  const text = (value: string) => value.split(ID_STAND_IN).map(p).join(` || ${NEW_ID_TEXT} || `)
  const names = Object.keys(row)
  const insert = names.length
    ? `insert into ${quote(table)} (${names.map(quote).join(', ')}) values (${names.map((n) => p(row[n])).join(', ')}) returning "id"`
    : `insert into ${quote(table)} default values returning "id"`
  const parts = [`"created" as (${insert})`]
  if (changes.entries.length) {
    const rows = changes.entries.map((e) => {
      const stamp = p(e.createdStamp)
      const values = [p(e.resource), id(e.resourceID), id(e.customerID), p(e.action), text(JSON.stringify(e.changes)), p(actor.apiKeyName), p(actor.requestID), stamp, stamp]
      return `(${values.join(', ')})`
    })
    parts.push(`"entries" as (insert into "history" (${HISTORY_COLUMNS}) values ${rows.join(', ')})`)
  }
  if (changes.events.length) {
    const rows = changes.events.map((e) => {
      const stamp = p(e.createdStamp)
      return `(${[p(e.type), text(e.data), stamp, stamp].join(', ')})`
    })
    parts.push(`"events" as (insert into "events" (${EVENT_COLUMNS}) values ${rows.join(', ')})`)
  }
  return CompiledQuery.raw(`with ${parts.join(', ')} select "id"::text as "id" from "created"`, params)
}
