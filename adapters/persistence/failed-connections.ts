import type pg from 'pg'

/** Told of a pooled connection that failed: its first error (the others say the same). */
export type OnConnectionLost = (error: Error & { code?: string }) => void

/**
 * Keeps a pool's failed connections from ending the process. A connection fails when its socket
 * or backend ends (the server restarted or failed over, an administrator ended the backend), and
 * the client emits 'error', which, unheard, ends the process. pg-pool hears it only while the
 * connection is idle (it removes the connection and emits 'error' on itself, heard here); while
 * checked out, the connection has no listener but this one. Its query, if one was under way,
 * rejects with the error all the same, and so does any later one; once given back, the pool drops
 * it (it is no longer queryable) and the next query opens another connection. `onLost` hears each
 * connection's first error (the backend's message, then the socket's end, follow each other).
 */
export function dropFailedConnections(pool: pg.Pool, onLost?: OnConnectionLost): pg.Pool {
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    let heard = false
    client.on('error', (error) => {
      if (!heard) onLost?.(error)
      heard = true
    })
  })
  return pool
}
