import type { IncomingMessage, ServerResponse } from 'node:http'
import type { H3Event } from 'h3'
import { HttpFailure } from './error-response.js'

/**
 * A request's life as its body readers see it: it ends when its answer is decided (in time,
 * at the deadline or by a failure) or when the client goes, and a read still waiting for the
 * body then fails. So work reading a body never outlives its request: a usage import whose
 * client stopped sending after the deadline's answer waited for ever inside its transaction,
 * which wedged a SQLite file and left a Postgres connection idle in transaction (issue 49).
 */
export class RequestLife {
  // The reads waiting now, each failed when the request ends. A plain set: an AbortController,
  // and above all its abort (which makes a DOMException), cost a GET of a customer a fifth of
  // its CPU and a create about 3 % (bench/create-customers.ts).
  private readonly onEnd = new Set<() => void>()
  private over = false

  constructor(private readonly bodyTimeoutMs: number | undefined) {}

  /** Whether a body read is waiting for the client's bytes now: the client, not the server, is late. */
  get waitingForClient(): boolean {
    return this.onEnd.size > 0
  }

  /** Whether the request has ended (its answer decided, or its client gone). */
  get ended(): boolean {
    return this.over
  }

  /**
   * The outcome of `read` (the body's next bytes), or a failure: the request ended first, or
   * nothing came within the body timeout (408001).
   */
  wait<T>(read: Promise<T>): Promise<T> {
    if (this.over) {
      // The read is dropped, but it still settles: a client gone (the reason the request ended)
      // fails it with node's "aborted", and a rejection nobody handles stops the process. A
      // create whose client reset the connection while its key was being checked did that.
      read.catch(() => {})
      return Promise.reject(requestEnded())
    }
    return new Promise<T>((resolve, reject) => {
      let open = true
      const settle = (): boolean => {
        if (!open) return false
        open = false
        this.onEnd.delete(onEnd)
        if (timer) clearTimeout(timer)
        return true
      }
      const onEnd = () => settle() && reject(requestEnded())
      const ms = this.bodyTimeoutMs
      const timer = ms ? setTimeout(() => settle() && reject(bodyTimeout(ms)), ms) : undefined
      this.onEnd.add(onEnd)
      read.then(
        (value) => settle() && resolve(value),
        (error) => settle() && reject(error),
      )
    })
  }

  end(): void {
    if (this.over) return
    this.over = true
    for (const fail of [...this.onEnd]) fail()
  }
}

/** The request's life, once `beginLife` has given it one (the outermost middleware does). */
export const lifeOf = (event: H3Event): RequestLife | undefined => event.context.life as RequestLife | undefined

/** Gives the request its life; on node:http it also ends when the client goes. */
export function beginLife(event: H3Event, bodyTimeoutMs: number | undefined): RequestLife {
  const life = new RequestLife(bodyTimeoutMs)
  event.context.life = life
  nodeOf(event)?.res.once('close', () => life.end())
  return life
}

/**
 * Ends the request's life once its answer is decided. An answer given before the whole body
 * arrived closes the connection after it: what is left of the body will never be read, and
 * node would otherwise keep the connection for it (and, at its own request timeout, write a
 * second answer, a 408, after ours). Node no longer destroys a request once its answer is
 * sent, so it is destroyed here when its socket closes, which frees whoever still listens to it.
 */
export function finishLife(event: H3Event): void {
  lifeOf(event)?.end()
  const node = nodeOf(event)
  if (!node || node.req.complete) return
  const { req, res } = node
  if (!res.headersSent) res.setHeader('connection', 'close')
  lingerOnClose(req)
  res.once('close', () => {
    const socket = req.socket
    if (!socket || socket.destroyed) req.destroy()
    else socket.once('close', () => req.destroy())
  })
}

/** How long a connection closed under a client still sending goes on reading what it sends. */
const LINGER_MS = 2_000

/**
 * A lingering close (RFC 9112, section 9.6). Node closes the connection once its answer is
 * written; a client still sending its body then has bytes the server never read, and the
 * kernel answers them with a reset, which can discard our answer in the client's receive
 * buffer before the client reads it (a usage file refused at its first line arrived as a bare
 * reset now and then). So the server half-closes after the answer, reads and drops what still
 * comes, and closes once the client does, or after LINGER_MS.
 */
function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket
  if (!socket) return
  socket.destroySoon = function lingeringClose(this: typeof socket) {
    this.end()
    req.resume()
    this.resume()
    // Closed only once the answer is written out (as node's own destroySoon waits for), and once
    // the client has closed its side or the lingering time is up.
    const close = () => (this.writableFinished ? this.destroy() : this.once('finish', () => this.destroy()))
    const timer = setTimeout(close, LINGER_MS)
    timer.unref()
    this.once('close', () => clearTimeout(timer))
    if (this.readableEnded) close()
    else this.once('end', close)
  }
}

/** The 408 a request whose body is late answers (at the body timeout, or at its deadline). */
export function bodyTimeout(ms: number): HttpFailure {
  return new HttpFailure(
    'request_timeout',
    `The request's body did not arrive in time (${ms} ms)`,
    'Send the body without pauses; split a large usage file into smaller ones.',
  )
}

/** What a body read still waiting gets when its request has ended; nobody sees it answered. */
const requestEnded = () => new HttpFailure('request_timeout', 'The request ended before its body was read', 'Send the request again.')

function nodeOf(event: H3Event): { req: IncomingMessage; res: ServerResponse } | undefined {
  const node = (event.req as { runtime?: { node?: { req?: IncomingMessage; res?: ServerResponse } } }).runtime?.node
  return node?.req && node.res ? { req: node.req, res: node.res } : undefined
}
