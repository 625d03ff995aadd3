import { openPlatform } from '../../apps/platform/platform.js'
import { runNextBillingRun } from '../../core/billing/run-billing.js'

/**
 * The worker side of bench/billing-run.ts: executes the requested billing run the way the
 * worker's job does, then prints one line `WORKER {json}` with the time and the peak RSS.
 * DATABASE_URL as for the worker.
 */
const platform = await openPlatform({ databaseUrl: process.env.DATABASE_URL!, skipMigrations: true })
try {
  const rssAtStart = process.memoryUsage().rss / 2 ** 20
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  const outcome = await runNextBillingRun(platform.context, process.env.BATCH_FEATURES ? { batchFeatures: Number(process.env.BATCH_FEATURES) } : {})
  const ms = performance.now() - start
  // CPU time of the worker alone: comparable between runs on a loaded machine, unlike wall time.
  const cpu = process.cpuUsage(cpuStart)
  const cpuMs = (cpu.user + cpu.system) / 1000
  const peakRssMB = process.resourceUsage().maxRSS / 1024
  const { heapTotal, heapUsed, external } = process.memoryUsage()
  const mb = (n: number) => Math.round(n / 2 ** 20)
  process.stdout.write(`WORKER ${JSON.stringify({ ms, cpuMs, outcome, peakRssMB, rssAtStart, heapTotalMB: mb(heapTotal), heapUsedMB: mb(heapUsed), externalMB: mb(external) })}\n`)
} finally {
  await platform.close()
}
