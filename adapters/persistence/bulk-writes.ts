import type { CompiledQuery, QueryResult } from 'kysely'
import type { Db } from './schema/tables.js'

/**
 * Sends a write of the open bulk transaction now, rather than when Kysely's transaction has the
 * previous statement's answer back (it runs a transaction's statements one at a time): the
 * database runs what it is sent in the order it was sent, so the write waits there, behind the
 * one under way, and starts the moment that one ends. An import sends each batch's rows this way
 * while the batch before is still being inserted: waiting for the answer, then making and
 * sending the next batch, had left a SQLite file's writes thread idle about 4 ms a batch, a
 * seventh of the import, and a Postgres backend about 1.6 ms of a batch's 35 (bench/RESULTS.md).
 */
export type WriteAhead = (query: CompiledQuery) => Promise<QueryResult<unknown>>

/**
 * Runs a bulk transaction's work (an import) on a connection that takes writes ahead: a SQLite
 * file's writes thread (`workerWrites`), a Postgres connection that pipelines them
 * (`pipelinedTransactions`). Commits when the work resolves, rolls back when it throws.
 */
export type BulkWrites = <T>(work: (trx: Db, writeAhead: WriteAhead) => Promise<T>) => Promise<T>
