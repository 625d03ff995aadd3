import type { Server, ServerOptions } from 'node:http'
import type { Socket } from 'node:net'
import { watchSends } from './send-timeout.js'

/**
 * What one client may hold of the server: its connections and how long each may take to send
 * its request or take its answer. Without them a few thousand idle sockets, a client that never
 * reads or one that sends a byte a second held memory and connections for ever (issue 49).
 */
export interface ConnectionLimits {
  /** Connections open at once (BILLING_MAX_CONNECTIONS); past it a new one is closed at once. */
  readonly maxConnections: number
  /** A request's headers must arrive within this (BILLING_HEADERS_TIMEOUT_MS), else 408. */
  readonly headersTimeoutMs: number
  /** A body read waits this long at most for the client's next bytes (BILLING_BODY_TIMEOUT_MS), else 408. */
  readonly bodyTimeoutMs: number
  /** A keep-alive connection with no request is closed after this (BILLING_IDLE_TIMEOUT_MS). */
  readonly idleTimeoutMs: number
  /** An answer the client takes none of for this long has its socket destroyed (BILLING_SEND_TIMEOUT_MS). */
  readonly sendTimeoutMs: number
}

/**
 * Far below the file descriptors a process gets, so that idle sockets cannot starve the
 * database files and the log of theirs; the idle timeout stays above the 60 s load balancers
 * keep their connections idle, so that the balancer, not the server, closes them.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 10_000,
  headersTimeoutMs: 60_000,
  bodyTimeoutMs: 10_000,
  idleTimeoutMs: 65_000,
  sendTimeoutMs: 30_000,
}

/**
 * Options of node's `createServer`. Headers are node's to time (its 408 and close). Bodies are
 * timed by the application's readers (`request-life.ts`), which answer 408 with the contract's
 * body; node's request timeout is only a backstop behind them and the request deadline, so that
 * it never answers a second time on a connection the application answered already.
 */
export function serverOptions(limits: ConnectionLimits, requestTimeoutMs: number): ServerOptions {
  const headersTimeout = limits.headersTimeoutMs
  const requestTimeout = Math.max(headersTimeout, requestTimeoutMs + limits.bodyTimeoutMs) + 2_000
  return { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(headersTimeout, 1_000) }
}

/** Applies the cap, the idle timeout and the send timeout to a server (before or after it listens). */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections
  server.keepAliveTimeout = limits.idleTimeoutMs
  watchSends(server, limits.sendTimeoutMs)
  server.on('timeout', (socket: Socket) => closeOrReset(socket, limits.sendTimeoutMs))
}

/**
 * An idle connection is closed (node's own way, a FIN), and reset if the client has not taken
 * that close within the send timeout. A client that never reads leaves its last answer in the
 * kernel's send buffer (a docs bundle fits whole on loopback, out of `watchSends`' sight) with the
 * FIN queued behind it, and a plain close kept that memory as long as the kernel kept trying:
 * 1,000 such clients held 1.6 GB. The reset drops it; a client that read its answers has closed
 * its side long before.
 */
function closeOrReset(socket: Socket, graceMs: number): void {
  const reset = setTimeout(() => socket.resetAndDestroy(), graceMs)
  reset.unref()
  socket.once('close', () => clearTimeout(reset))
  socket.end()
}
