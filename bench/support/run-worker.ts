import { readFileSync } from 'node:fs'
import { childCommand } from './build.js'
import { startChild } from './child-process.js'
import type { BenchDatabase } from './database.js'
import type { StatementTime } from './statement-times.js'

/** What a billing worker process (bench/support/billing-worker.ts) reports. */
export interface WorkerResult {
  ms: number
  cpuMs: number
  peakRssMB: number
  rssAtStart: number
  heapTotalMB: number
  /** Bytes the worker wrote, in MB (Linux; see billing-worker.ts). */
  writtenMB?: number
  /** With `--statements`. */
  statements?: StatementTime[]
  outcome: { status: string; customers: number; invoices: number; ledgerWrites: number }
}

/**
 * The young-generation flags of `npm run worker` (package.json), which the worker is measured
 * with: `--max-semi-space-size=32`. An earlier session found 32 MB no faster than V8's default
 * 16 MB; since invoicing and events, a batch's objects outlive two 16 MB scavenges, are promoted
 * and die in old space: 32 MB took the run from 14.6-14.9 s to 13.6 s and its peak RSS from
 * 226-231 to 193-196 MB (back to back on one seeded database; bench/RESULTS.md). 64 MB was no
 * faster again and added 60 MB.
 */
function workerNodeFlags(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.worker
  return script.split(/\s+/).filter((word) => /^--max-semi-space-size=\d+$/.test(word))
}

export async function runWorker(db: BenchDatabase, url = db.childUrl, env: Record<string, string> = {}): Promise<WorkerResult> {
  const child = startChild([...workerNodeFlags(), ...(await childCommand('bench/support/billing-worker.ts'))], { DATABASE_URL: url, ...env })
  const code = await child.exited
  const line = readFileSync(child.logFile, 'utf8').split('\n').find((l) => l.startsWith('WORKER '))
  if (code !== 0 || !line) throw new Error(`billing worker failed (exit ${code}):\n${child.log().slice(-3000)}`)
  const result = JSON.parse(line.slice('WORKER '.length)) as WorkerResult
  if (!['Complete', 'Review', 'none'].includes(result.outcome.status)) throw new Error(`run ended ${result.outcome.status}`)
  return result
}

