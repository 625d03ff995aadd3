/** One JSON object per line on stdout/stderr; callers never pass secrets. */
export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void
  error(event: string, fields?: Record<string, unknown>): void
}

/** A logger writing one JSON object per line (with time, level and event), to stderr by default. */
export const jsonLogger = (write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Logger => ({
  info: (event, fields) => write(JSON.stringify({ time: new Date().toISOString(), level: 'info', event, ...fields })),
  error: (event, fields) => write(JSON.stringify({ time: new Date().toISOString(), level: 'error', event, ...fields })),
})

export const silentLogger: Logger = { info() {}, error() {} }
