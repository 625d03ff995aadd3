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
