import { CompiledQuery } from 'kysely'
import type { Db } from '../schema/tables.js'
import { postgresConcurrency } from './concurrency.js'

/** Where events wait for their numbers: the table of migration 0072, shaped as `events`. */
export const UNNUMBERED_EVENTS = 'unnumbered_events'

/**
 * How events get the IDs readers page by (contract 12: `GET /events/?idAfter=` polls in order,
 * webhooks get events in event order). A reader past event N must never later find an event
 * below N, so an ID may become visible only after every lower one has.
 */
export interface EventNumbersDialect {
  /** The table events are appended to: `events` itself where an insert's ID is already in commit order (SQLite), else `unnumbered_events`. */
  readonly eventsAppendedTo: 'events' | typeof UNNUMBERED_EVENTS
  /**
   * Numbers the events committed so far (and those of `db`'s own transaction), in the order they
   * were appended, after every event already numbered: what a read of `events` does first.
   * Cheap when nothing waits (one read of the first entry of an index).
   */
  numberEvents(db: Db): Promise<void>
}

/**
 * Whether any event waits, read by the key's index: the table churns (every row is deleted once
 * numbered), and until autovacuum reclaims them a scan of its heap would read every dead row.
 */
const waiting = CompiledQuery.raw(`select "id" from "${UNNUMBERED_EVENTS}" order by "id" limit 1`)
const COLUMNS = '"type", "data", "createdStamp", "updatedStamp"'

/** Runs `work` in `db`'s transaction, or in a new one. */
const inTransaction = (db: Db, work: (trx: Db) => Promise<void>): Promise<void> => (db.isTransaction ? work(db) : db.transaction().execute(work))

/**
 * SQLite: one writer at a time, so an event's AUTOINCREMENT ID is taken and committed before
 * any later one is taken, and events go straight into `events`. `unnumbered_events` fills only
 * when an archive taken on Postgres is restored (docs/restore.md): its events are numbered on
 * the next read.
 */
export const sqliteEventNumbers: EventNumbersDialect = {
  eventsAppendedTo: 'events',
  async numberEvents(db) {
    if ((await db.executeQuery(waiting)).rows.length === 0) return
    await inTransaction(db, async (trx) => {
      await trx.executeQuery(CompiledQuery.raw(`insert into "events" (${COLUMNS}) select ${COLUMNS} from "${UNNUMBERED_EVENTS}" order by "id"`))
      await trx.executeQuery(CompiledQuery.raw(`delete from "${UNNUMBERED_EVENTS}"`))
    })
  },
}

const NUMBERING_LOCK = 'events: numbering'
const move = CompiledQuery.raw(
  `with "moved" as (delete from "${UNNUMBERED_EVENTS}" returning *) insert into "events" (${COLUMNS}) select ${COLUMNS} from "moved" order by "id"`,
)

/**
 * Postgres: an identity value is taken at INSERT and becomes visible at COMMIT, in any order
 * across connections, so an event appended with its ID could appear below an ID a reader has
 * already passed, and be skipped for ever. Events are appended unnumbered instead, and numbered
 * here, by one connection at a time (a transaction-scoped advisory lock, held to its commit):
 * the committed ones it sees go into `events` in the order they were appended, each with the
 * next identity value. A numbering waits for the one before it to commit, and takes its IDs
 * after that one's; so when a reader sees ID N, every lower ID is committed and visible too.
 *
 * Why not by transaction ID (number only events whose xid is below the snapshot's xmin): that
 * order can put an event before one its own transaction saw committed (a transaction's xid is
 * taken at its first write, which may precede the other's commit), and the xmin is the whole
 * server's, so any long write transaction, in any database on the server, would hold back
 * every event. Numbering what is committed needs neither, and each appending transaction is
 * untouched (no lock on the write path: a create still commits alone; bench/create-customers.ts).
 * The events of a long transaction (a billing run's batch) are numbered once it commits, after
 * those committed meanwhile. Inside a transaction (the webhook queue's) the numbering holds the
 * lock to that transaction's commit, and needs READ COMMITTED, the store's: a REPEATABLE READ
 * snapshot taken before the lock would not see the rows the numbering before it moved.
 */
export const postgresEventNumbers: EventNumbersDialect = {
  eventsAppendedTo: UNNUMBERED_EVENTS,
  async numberEvents(db) {
    if ((await db.executeQuery(waiting)).rows.length === 0) return
    await inTransaction(db, async (trx) => {
      await postgresConcurrency.lockKey(trx, NUMBERING_LOCK)
      // A new statement after the lock: under READ COMMITTED it sees what the numbering before it
      // committed. The insert takes identity values as the sorted rows reach it, in append order.
      await trx.executeQuery(move)
    })
  },
}
