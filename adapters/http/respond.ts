import { hash } from 'node:crypto'
import type { H3Event } from 'h3'
import { FastResponse } from 'srvx'
import { toErrorParts } from './error-response.js'

/** The request's ID, set by the first middleware. */
export const requestIdOf = (event: H3Event): string => (event.context.requestId as string) ?? ''

/**
 * A JSON response with the request ID; every answer of the API goes through here. srvx's
 * FastResponse (what h3 itself returns) is written to the socket as one string with its
 * length, where a web Response would be streamed: a third of the CPU time of a small GET
 * (bench/get-customer.ts).
 */
export function json(event: H3Event, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(event, status, JSON.stringify(body), headers)
}

/** A JSON response whose body is already JSON text (written by toWireJson, or by the database as UTF-8). */
export function jsonText(event: H3Event, status: number, text: string | Uint8Array, headers: Record<string, string> = {}): Response {
  return new FastResponse(text as string | Uint8Array<ArrayBuffer>, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestIdOf(event), ...headers },
  })
}

/**
 * One item's JSON with a strong `ETag` (a digest of the bytes sent), or `304 Not Modified` when
 * `If-None-Match` names it: a client that polls an item pays for a body only when it changed.
 */
export function jsonItem(event: H3Event, text: string | Uint8Array, headers: Record<string, string> = {}): Response {
  // Encoded once: the digest and the socket then read the same bytes, where a string was
  // encoded for each (and measured for its length once more).
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  const etag = `"${hash('sha1', bytes, 'base64url')}"`
  if (noneMatch(event.req.headers.get('if-none-match'), etag)) {
    return new FastResponse(null, { status: 304, headers: { etag, 'x-request-id': requestIdOf(event), ...headers } })
  }
  return jsonText(event, 200, bytes, { etag, ...headers })
}

/** Whether an `If-None-Match` header names this entity tag (weak comparison, RFC 9110 13.1.2). */
function noneMatch(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

/** The contract's error response for any failure; unexpected ones are logged, never shown. */
export function errorResponse(event: H3Event, error: unknown): Response {
  const parts = toErrorParts(error)
  if (parts.unexpected) {
    event.context.failure = error
    const log = event.context.logError as ((e: unknown) => void) | undefined
    log?.(error)
  }
  return json(event, parts.status, parts.body, parts.headers)
}
