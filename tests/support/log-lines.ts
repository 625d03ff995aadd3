import { createLogger, type Logger } from '../../apps/platform/logger.js'

/** The platform's real logger writing into an array: the raw lines, and each parsed. */
export function capturedLogger(level: 'debug' | 'info' | 'error' = 'debug'): { logger: Logger; lines: string[]; entries(): Record<string, any>[] } {
  const lines: string[] = []
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } })
  return { logger, lines, entries: () => lines.map((l) => JSON.parse(l)) }
}
