/** One JSON object per line on stdout/stderr; callers never pass secrets. */
export interface Logger {
  info(event: string, fields?: object): void
  error(event: string, fields?: object): void
}

/** A logger writing one JSON object per line (with time, level and event), to stderr by default. */
export const jsonLogger = (write: (line: string) => void = batchedStderr()): Logger => ({
  info: (event, fields) => write(jsonLine('info', event, fields)),
  error: (event, fields) => write(jsonLine('error', event, fields)),
})

/**
 * `{"time":…,"level":…,"event":…, ...fields}` as one line. The server writes one per request:
 * putting the fields after a prefix made once per millisecond, rather than spreading them into
 * a new object, halved its cost. Fields named like the prefix's members replace them, as a spread would.
 */
function jsonLine(level: string, event: string, fields?: object): string {
  if (fields && ('time' in fields || 'level' in fields || 'event' in fields)) {
    return JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })
  }
  const head = `{"time":"${isoNow()}","level":"${level}","event":${JSON.stringify(event)}`
  const rest = fields ? JSON.stringify(fields) : '{}'
  return rest === '{}' ? `${head}}` : `${head},${rest.slice(1)}`
}

let lastMs = -1
let lastIso = ''
function isoNow(): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

export const silentLogger: Logger = { info() {}, error() {} }

/** Lines kept before they are written even if the event loop has not turned. */
const BATCH_BYTES = 64 * 1024

/**
 * Writes lines to stderr together, once per turn of the event loop. stderr to a file or a pipe
 * is a synchronous write: one per request line was a system call per request, a tenth of the
 * CPU time of a GET under load (bench/get-customer.ts). What is pending is written on exit, so a
 * crash still leaves its last lines.
 */
export function batchedStderr(stream: { write(text: string): unknown } = process.stderr): (line: string) => void {
  let pending: string[] = []
  let bytes = 0
  const flush = () => {
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    bytes = 0
    stream.write(text)
  }
  process.once('exit', flush)
  return (line) => {
    if (pending.length === 0) setImmediate(flush)
    pending.push(`${line}\n`)
    bytes += line.length + 1
    if (bytes >= BATCH_BYTES) flush()
  }
}
