import { pino, type Logger as Pino } from 'pino'
import { isSafeMethod } from '../../adapters/http/safe-methods.js'
import type { Logger } from './logger.js'

type Stream = { write(line: string): unknown }

/** Which requests get a line (BILLING_LOG_REQUESTS); the metrics count every request whatever it is. */
export const REQUEST_LOG_MODES = ['all', 'writes', 'none'] as const
export type RequestLogMode = (typeof REQUEST_LOG_MODES)[number]

/**
 * Whether a request's line is written. `writes` keeps every request that may change something
 * and every answer of 400 or more, a failed read included, and leaves successful reads to the
 * metrics: a line is about 310 bytes, so a server answering 10,000 GETs a second writes some
 * 270 GB of them a day. Skipping them did not measurably speed a GET (bench/RESULTS.md, session 49).
 */
export function requestLineWanted(mode: RequestLogMode): (entry: { readonly method: string; readonly status: number }) => boolean {
  if (mode === 'all') return () => true
  if (mode === 'none') return () => false
  return (entry) => entry.status >= 400 || !isSafeMethod(entry.method)
}

/**
 * The request line's logger: at info, a line of flat fields (strings, numbers, booleans, null)
 * is written by hand into the logger's own destination, byte for byte the line pino writes
 * (tests/apps/logger.test.ts; a string holding a lone surrogate aside, which JSON.stringify
 * escapes and pino does not), without the redaction net (none of the request line's fields can
 * hold a secret). pino's general path, each field through its serializers, took 3.1 µs a line
 * against 1.3 written here (bench/log-line.ts), of the 90 µs or so of a GET of a customer.
 * Other levels, and fields of any other kind, go through pino itself.
 */
export function requestLines(logger: Pino): Logger {
  const plain = logger.child({}, { redact: [] })
  const stream = (logger as unknown as Record<symbol, Stream>)[pino.symbols.streamSym]
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym]
  return {
    debug: (fields, event) => plain.debug(fields, event),
    warn: (fields, event) => plain.warn(fields, event),
    error: (fields, event) => plain.error(fields, event),
    info(fields, event) {
      if (!logger.isLevelEnabled('info')) return
      const line = flatLine(fields, event, bindings)
      if (line === null) plain.info(fields, event)
      else stream.write(line)
    },
  }
}

/** pino's line for flat fields (its level label, ISO time, bindings, fields, message), or null. */
function flatLine(fields: object, event: string, bindings: string): string | null {
  let line = `{"level":"info","time":"${new Date().toISOString()}"${bindings}`
  for (const key in fields) {
    const value = (fields as Record<string, unknown>)[key]
    switch (typeof value) {
      case 'string':
        line += `,"${key}":${JSON.stringify(value)}`
        break
      case 'number':
        line += `,"${key}":${Number.isFinite(value) ? value : null}`
        break
      case 'boolean':
        line += `,"${key}":${value}`
        break
      case 'undefined':
      case 'function':
        break
      default:
        if (value !== null) return null
        line += `,"${key}":null`
    }
  }
  return `${line},"msg":${JSON.stringify(event)}}\n`
}
