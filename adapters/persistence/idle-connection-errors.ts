import type pg from 'pg'

/**
 * Lets a pool drop an idle connection that fails (the server restarted, or ended its backend):
 * pg-pool removes it and emits 'error', which, unheard, would end the process. The next query
 * opens another connection.
 */
export function dropFailedIdleConnections(pool: pg.Pool): pg.Pool {
  pool.on('error', () => {})
  return pool
}
