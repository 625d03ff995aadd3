import { Kysely, PostgresDialect, type CompiledQuery, type KyselyConfig, type PostgresCursor, type PostgresPoolClient, type PostgresQueryResult, type QueryResult } from 'kysely'
import pg from 'pg'
import type { BulkWrites } from '../bulk-writes.js'
import { dropFailedConnections, type OnConnectionLost } from '../failed-connections.js'
import type { Tables } from '../schema/tables.js'

/**
 * A connection of a pipelining pool (node-postgres's `pipeline` mode: a query is sent at once,
 * not when the one before is answered) as Kysely's client for one bulk transaction. Kysely still
 * sends its own statements one at a time; those sent ahead (`ahead`) go down the connection at
 * once, behind whatever is under way, and the backend runs them all in the order sent.
 */
export class PipelinedClient implements PostgresPoolClient {
  /** Once the transaction is over the connection is the pool's again. */
  private ended = false
  /** The first statement of the transaction the backend refused, if one was. */
  private refused: unknown = undefined

  constructor(private readonly client: pg.PoolClient) {}

  /**
   * Every statement after a refused one fails with 25P02 ("current transaction is aborted"),
   * which says nothing of why; with statements sent ahead, one of those can be the first a caller
   * awaits. Answers come in the order sent, so the first failure seen is the cause: a 25P02 after
   * it is reported as that failure.
   */
  private readonly failed = (error: unknown): never => {
    if (this.refused === undefined) this.refused = error
    else if ((error as { code?: unknown } | null)?.code === '25P02') throw this.refused
    throw error
  }

  ahead(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.ended) return Promise.reject(new Error('a write sent ahead belongs to a transaction, and none is open'))
    return this.client.query(query.sql, [...query.parameters]).then((result) => ({ rows: result.rows, numAffectedRows: result.rowCount === null ? undefined : BigInt(result.rowCount) }), this.failed)
  }

  query<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>>
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>
  query<R>(text: string | PostgresCursor<R>, values?: readonly unknown[]): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely streams through a cursor only when given one (`PostgresDialect`'s `cursor`), and a
    // pipelined connection could not keep its portal open anyway.
    if (typeof text !== 'string') throw new Error('a bulk transaction reads no cursors')
    if (this.ended) return Promise.reject(new Error('this bulk transaction is over'))
    return (this.client.query(text, values as unknown[]) as unknown as Promise<PostgresQueryResult<R>>).catch(this.failed)
  }

  /** Kysely releases its connection after the transaction; the pool's is given back by `pipelinedTransactions`. */
  release(): void {}

  /** The transaction is over: nothing more goes to the connection through this. */
  end(): void {
    this.ended = true
  }
}

/** `BulkWrites` on Postgres, and the pool it takes its connections from. */
export interface PipelinedTransactions {
  readonly bulkWrites: BulkWrites
  end(): Promise<void>
}

/**
 * Bulk transactions (imports) on connections of a pool of their own, made as `config` makes the
 * main pool's but pipelining: node-postgres sends a query only once the one before is answered,
 * so the backend sat idle while this process took an insert's answer and sent the next batch's
 * (`WriteAhead`). Only bulk transactions pipeline: the main pool's queries wait for each other
 * as node-postgres has always done. A connection unused for ten seconds is closed (pg's default).
 */
export function pipelinedTransactions(config: pg.PoolConfig, options: Omit<KyselyConfig, 'dialect'> = {}, onLost?: OnConnectionLost): PipelinedTransactions {
  // `pipeline` is node-postgres's option (8.20+); its types do not have it yet.
  const pool = dropFailedConnections(new pg.Pool({ ...config, max: BULK_CONNECTIONS, pipeline: true } as pg.PoolConfig), onLost)
  const bulkWrites: BulkWrites = async (work) => {
    const client = await pool.connect()
    const pipelined = new PipelinedClient(client)
    const db = new Kysely<Tables>({ ...options, dialect: new PostgresDialect({ pool: { connect: async () => pipelined, end: async () => {} } }) })
    try {
      return await db.transaction().execute((trx) => work(trx, (query) => pipelined.ahead(query)))
    } finally {
      pipelined.end()
      await db.destroy()
      // The pool drops a connection whose socket failed (pg-pool checks it is still queryable).
      client.release()
    }
  }
  return { bulkWrites, end: () => pool.end() }
}

/** Imports at once, at most, each on its own connection; more wait for one. */
const BULK_CONNECTIONS = 4
