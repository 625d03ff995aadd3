import autocannon from 'autocannon'
import { cpuMsOf } from './machine.js'

/** What one autocannon run measured. */
export interface LoadResult {
  /** Mean requests per second over the run. */
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly total: number
  /** Responses that were not 2xx, and socket errors/timeouts. */
  readonly failures: number
  /** Server CPU time per request in ms (user + system), when its pid was given. */
  readonly cpuMsPerRequest?: number
}

export interface LoadOptions {
  readonly url: string
  readonly connections: number
  /** Seconds; or `amount` requests. */
  readonly duration?: number
  readonly amount?: number
  readonly method?: 'GET' | 'POST'
  readonly headers?: Record<string, string>
  /** Changes each request (path, body) before it is sent. */
  readonly setup?: (req: { path: string; body?: string; method?: string }) => { path: string; body?: string; method?: string }
  readonly pipelining?: number
  /** The server's pid, to measure its CPU time per request. */
  readonly serverPid?: number
}

/** HTTP load from this process (the server under test runs in another one). */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const cpuBefore = o.serverPid ? await cpuMsOf(o.serverPid) : null
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    ...(o.amount ? { amount: o.amount } : { duration: o.duration ?? 10 }),
    pipelining: o.pipelining ?? 1,
    method: o.method ?? 'GET',
    headers: o.headers ?? {},
    requests: o.setup ? [{ setupRequest: o.setup }] : undefined,
    timeout: 30,
  })
  const cpuAfter = o.serverPid ? await cpuMsOf(o.serverPid) : null
  return {
    cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / Math.max(1, result.requests.total) : undefined,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  }
}
