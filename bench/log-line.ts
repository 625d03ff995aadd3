import { createLogger, requestLineLogger } from '../apps/platform/logger.js'

/**
 * The cost of one request log line: through the platform's logger (with its redaction net) and
 * through the request-line logger that skips it (apps/platform/logger.ts), into a destination that
 * keeps nothing. Alternating rounds, so both see the same machine.
 */
const LINES = 200_000
const logger = createLogger({ destination: { write: () => {} } })
const requests = requestLineLogger(logger)
const entry = () => ({ requestId: 'r-1', method: 'GET', path: '/backend/api/v1/customers/7', route: '/backend/api/v1/customers/:id', status: 200, keyName: 'admin', durationMs: 1.23 })
const rounds: Record<string, number[]> = { 'with the redaction net': [], 'request-line logger': [] }
for (let round = 0; round < 3; round++) {
  for (const [name, l] of [['with the redaction net', logger], ['request-line logger', requests]] as const) {
    const started = performance.now()
    for (let i = 0; i < LINES; i++) l.info(entry(), 'request')
    rounds[name].push(((performance.now() - started) * 1000) / LINES)
  }
}
for (const [name, us] of Object.entries(rounds)) console.log(`${name}: ${Math.min(...us).toFixed(2)} µs a line (best of 3; ${us.map((u) => u.toFixed(2)).join(', ')})`)
