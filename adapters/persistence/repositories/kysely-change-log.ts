import { anyTables, type Db } from '../schema/tables.js'
import { sql } from 'kysely'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { Resource } from '../../../core/fields/resource.js'
import { listJsonMembers } from '../list-json/list-json-dialect.js'
import type { Actor, ChangeLog, NewEvent, NewHistoryEntry } from '../../../core/ports/change-log.js'
import type { BulkColumn } from '../dialect/bulk-insert.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import { columnType } from '../schema/columns.js'

/** Who changes things when no request says otherwise: the worker, the scheduler, a script. */
export const SYSTEM_ACTOR: Actor = { apiKeyName: 'system', requestID: null }

/** Values of a long list per `appendEventsOf` statement, well under the parameter limits. */
const CHUNK = 1000
/** Up to this many entries and events go in one statement of both (`insertsInWith`). */
const FEW = 20

const EVENT_COLUMNS = (['type', 'data', 'createdStamp', 'updatedStamp'] as const).map((name) => ({ name, type: 'text' as const }))

const historyColumnsOf = new WeakMap<DatabaseDialect, readonly BulkColumn[]>()
/** The columns of `historyRow`'s rows (`row`, one of them) with their types, for the dialect's bulk insert. */
function historyColumns(dialect: DatabaseDialect, row: object): readonly BulkColumn[] {
  let columns = historyColumnsOf.get(dialect)
  if (!columns) historyColumnsOf.set(dialect, (columns = Object.keys(row).map((name) => ({ name, type: columnType(catalogue.history.byName.get(name)!, dialect) }))))
  return columns
}

/**
 * A history entry as its row stores it (IDs as the core gives them), by column: what `append`
 * writes, and what a create's one statement writes beside its insert (recorded-insert.ts).
 */
export const historyRow = (e: NewHistoryEntry, { apiKeyName, requestID }: Actor) => ({
  resource: e.resource,
  resourceID: e.resourceID,
  customerID: e.customerID,
  action: e.action,
  changes: JSON.stringify(e.changes),
  apiKeyName,
  requestID,
  createdStamp: e.createdStamp,
  updatedStamp: e.createdStamp,
})

/** An event as its row stores it, by column (`historyRow`'s twin for the events outbox). */
export const eventRow = (e: NewEvent) => ({ type: e.type, data: e.data, createdStamp: e.createdStamp, updatedStamp: e.createdStamp })

/**
 * History and the events outbox in the tables of migration 0014, on the store's connection or
 * transaction. Events go where the dialect appends them (`eventsAppendedTo`): on Postgres they
 * get their IDs once committed (dialect/event-numbers.ts), so nothing here reads them back.
 */
export class KyselyChangeLog implements ChangeLog {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
    private readonly actor: () => Actor,
  ) {}

  async append(entries: readonly NewHistoryEntry[], events: readonly NewEvent[]): Promise<void> {
    if (entries.length) {
      const actor = this.actor()
      const id = (v: string | null) => (v === null ? null : this.dialect.encodeId(v))
      const rows = entries.map((e) => ({ ...historyRow(e, actor), resourceID: id(e.resourceID), customerID: id(e.customerID) }))
      // A create's or an update's entry and event: one statement where the database allows,
      // instead of a round trip each (bench/create-customers.ts on Postgres).
      if (this.dialect.insertsInWith && rows.length <= FEW && events.length > 0 && events.length <= FEW) {
        await this.db.with('entries', (db) => db.insertInto('history').values(rows)).insertInto(this.dialect.eventsAppendedTo).values(events.map(eventRow)).execute()
        return
      }
      // As the events below: Kysely's insert builder was a twentieth of a create's CPU on SQLite.
      const columns = historyColumns(this.dialect, rows[0])
      await this.dialect.bulkInsert(this.db, 'history', columns, {
        length: rows.length,
        write(index, into, at) {
          const row = rows[index] as Record<string, unknown>
          for (let c = 0; c < columns.length; c++) into[at + c] = row[columns[c].name]
        },
      })
    }
    // A run's batch appends hundreds: written as they are into a prepared statement's parameters.
    await this.dialect.bulkInsert(this.db, this.dialect.eventsAppendedTo, EVENT_COLUMNS, {
      length: events.length,
      write(index, into, at) {
        const e = events[index]
        into[at] = e.type
        into[at + 1] = e.data
        into[at + 2] = e.createdStamp
        into[at + 3] = e.createdStamp
      },
    })
  }

  async appendEventsOf(type: string, resource: Resource, where: Readonly<Record<string, string | readonly string[]>>, createdStamp: Stamp): Promise<void> {
    // A long list of values goes a chunk at a time, under the parameter limits; ID order holds across chunks.
    const list = Object.entries(where).find((e): e is [string, readonly string[]] => typeof e[1] !== 'string')
    if (list && list[1].length > CHUNK) {
      const values = [...list[1]].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
      for (let i = 0; i < values.length; i += CHUNK) await this.appendEventsOf(type, resource, { ...where, [list[0]]: values.slice(i, i + CHUNK) }, createdStamp)
      return
    }
    const wire = this.dialect.listJson(listJsonMembers(resource, resource.table, {}))
    let select = anyTables(this.db)
      .selectFrom(resource.table)
      .select([sql.lit(type).as('type'), sql`cast(${wire.column} as text)`.as('data'), sql.lit(createdStamp).as('createdStamp'), sql.lit(createdStamp).as('updatedStamp')])
    for (const [column, value] of Object.entries(where)) {
      if (typeof value === 'string') select = select.where(column, '=', this.dialect.encodeId(value))
      else if (value.length === 0) return
      else select = select.where(column, 'in', value.map((v) => this.dialect.encodeId(v)))
    }
    await this.db.insertInto(this.dialect.eventsAppendedTo).columns(['type', 'data', 'createdStamp', 'updatedStamp']).expression(select.orderBy(`${resource.table}.id`)).execute()
  }
}
