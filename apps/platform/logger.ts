import { pino, type DestinationStream, type LevelWithSilent } from 'pino'
import { requestLines } from './request-lines.js'

/**
 * Where the platform logs: pino's methods, fields first and the event name as the message. A
 * pino logger is one, so an embedding application passes its own (or a child of it).
 */
export interface Logger {
  debug(fields: object, event: string): void
  info(fields: object, event: string): void
  warn(fields: object, event: string): void
  error(fields: object, event: string): void
}

/** The values LOG_LEVEL takes (pino's levels). */
export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/**
 * Fields that never reach a log line whatever logs them: API keys travel in the authorization
 * header, passwords and secrets in bodies and settings. Nothing logs them on purpose; this is
 * the net under a field logged by mistake (an error's request, a settings object).
 */
const REDACTED = ['authorization', 'password', 'secret', 'pin', 'apiKey', 'accountPassword', 'drPassword', 'databaseUrl']
const REDACT_PATHS = [...REDACTED, ...REDACTED.map((f) => `*.${f}`), 'headers.authorization', 'req.headers.authorization', '*.headers.authorization']

export interface LoggerOptions {
  /** LOG_LEVEL; `info` when absent. */
  readonly level?: LevelWithSilent
  /** Where the lines go: stderr by default (stdout carries only what the commands print for scripts). */
  readonly destination?: DestinationStream
}

/**
 * JSON lines by pino: `{"level":"info","time":"<ISO>","pid":…,"hostname":…,"msg":"<event>",…fields}`.
 * Lines are written asynchronously in batches (what is pending is flushed on exit): one write
 * per request line was a system call per request under load (bench/get-customer.ts).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const logger = pino(
    {
      level: options.level ?? 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ dest: 2, sync: false }),
  )
  return Object.assign(logger, { [REQUEST_LINES]: requestLines(logger) })
}

const REQUEST_LINES = Symbol('request lines')

/**
 * Where the one line per request goes. Its fields are fixed by the request middleware (ID, method,
 * path, route, status, key name, timing) and none can hold a secret, so the line skips the
 * redaction net: its wildcard paths cost about 25 µs a line, a tenth of a GET's CPU
 * (bench/get-customer.ts). A logger an application passed in is used as it is.
 */
export function requestLineLogger(logger: Logger): Logger {
  return (logger as Logger & { [REQUEST_LINES]?: Logger })[REQUEST_LINES] ?? logger
}

/** Logs nothing (the library's default: an application chooses where its logs go). */
export const silentLogger: Logger = pino({ level: 'silent' })
