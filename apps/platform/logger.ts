/** One JSON object per line on stdout/stderr; callers never pass secrets. */
export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void
  error(event: string, fields?: Record<string, unknown>): void
}

/** A logger writing one JSON object per line (with time, level and event), to stderr by default. */
export const jsonLogger = (write: (line: string) => void = batchedStderr()): Logger => ({
  info: (event, fields) => write(JSON.stringify({ time: new Date().toISOString(), level: 'info', event, ...fields })),
  error: (event, fields) => write(JSON.stringify({ time: new Date().toISOString(), level: 'error', event, ...fields })),
})

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
