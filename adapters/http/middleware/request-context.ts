import { randomUUID } from 'node:crypto'
import type { Middleware } from 'h3'
import { withDeadline } from '../deadline.js'
import { HttpFailure } from '../error-response.js'
import { beginLife, bodyTimeout, finishLife } from '../request-life.js'
import { errorResponse } from '../respond.js'
import { patternOf } from '../route-meta.js'

/** What the request log line and the request metrics learn of each request. */
export interface RequestLogEntry {
  readonly requestId: string
  readonly method: string
  readonly path: string
  /** The route's path pattern (`/backend/api/v1/customers/:id`), or null when no route matched. */
  readonly route: string | null
  readonly status: number
  readonly keyName: string | null
  readonly durationMs: number
}

export interface RequestContextOptions {
  /** Called once per request when it ends, whatever answered it. */
  readonly onRequestEnd?: (entry: RequestLogEntry) => void
  readonly onUnexpectedError?: (error: unknown, requestId: string) => void
  /** A request not answered within this many milliseconds answers 503001; no deadline when absent. */
  readonly deadlineMs?: number
  /** A body read waits this long at most for the client's next bytes, else 408001; no limit when absent. */
  readonly bodyTimeoutMs?: number
}

const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/

/**
 * The outermost middleware: gives the request its ID (the client's own when it is sane) and its
 * life (request-life.ts), holds everything after it to the deadline, turns whatever they throw
 * into the contract's error body, ends the request's life with its answer, and reports the
 * request's end. Every other middleware may simply throw. At the deadline a request whose body
 * is still awaited from the client answers 408 (the client is late), any other 503.
 */
export function requestContext(options: RequestContextOptions): Middleware {
  return async (event, next) => {
    const started = performance.now()
    const given = event.req.headers.get('x-request-id')
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID()
    event.context.requestId = requestId
    event.context.logError = (e: unknown) => options.onUnexpectedError?.(e, requestId)
    const life = beginLife(event, options.bodyTimeoutMs)
    let response: Response
    try {
      response = (await withDeadline(Promise.resolve(next()), options.deadlineMs)) as Response
    } catch (error) {
      const late = error instanceof HttpFailure && error.code === 'handler_timeout' && life.waitingForClient
      response = errorResponse(event, late ? bodyTimeout(options.deadlineMs!) : error)
    }
    finishLife(event)
    options.onRequestEnd?.({
      requestId,
      method: event.req.method,
      path: event.url.pathname,
      route: patternOf(event),
      status: response.status,
      keyName: (event.context.key as { name?: string } | undefined)?.name ?? null,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    })
    return response
  }
}
