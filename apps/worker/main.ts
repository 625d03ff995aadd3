#!/usr/bin/env -S node --max-semi-space-size=32
// The young generation the worker is measured with (bench/billing-run.ts); `npm run worker` passes the same.
import { readEnvConfig } from '../platform/config.js'
import { createLogger } from '../platform/logger.js'
import { listenForMetrics } from '../platform/metrics-endpoint.js'
import { openFromEnv } from '../platform/open-from-env.js'
import { checkArchiveDir, runMain } from '../platform/startup.js'

process.setSourceMapsEnabled(true)

/**
 * `npm run worker` (bin `telco-billing-worker`): the scheduler alone. It checks the settings,
 * migrates, then runs the scheduled jobs until SIGTERM/SIGINT; with Postgres any number of
 * workers may share one database. With BILLING_WORKER_METRICS_PORT it also serves its own
 * `GET /metrics` (its jobs' runs and durations, metrics-endpoint.ts) with `/healthz` and `/readyz`, and no other route.
 */
async function main(): Promise<void> {
  const config = readEnvConfig()
  const logger = createLogger({ level: config.logLevel })
  await checkArchiveDir(config)
  const metrics = config.workerMetricsPort === null ? null : await listenForMetrics(config, config.workerMetricsPort)
  const platform = await openFromEnv(config, logger)
  metrics?.serve(platform, config.metricsPublic)
  // BILLING_LEASE_MS also bounds a webhook's lease: a killed worker's deliveries resume elsewhere after it.
  const scheduler = platform.createScheduler({ schedules: config.schedules, leaseMs: config.leaseMs, webhooks: { leaseMs: config.leaseMs } })
  scheduler.start()
  const keepAlive = setInterval(() => {}, 1 << 30)
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'worker-stopping')
    clearInterval(keepAlive)
    await Promise.all([scheduler.stop(), metrics?.close()])
    await platform.close()
    logger.info({}, 'worker-stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  // Announced only once the signal handlers are in place, so a supervisor may stop it at once.
  if (metrics) logger.info({ url: `http://${config.host}:${metrics.port}/metrics`, port: metrics.port }, 'worker-metrics')
  logger.info({ database: platform.database.description }, 'worker-started')
}

runMain('worker-startup-failed', main)
