#!/usr/bin/env -S node --max-semi-space-size=32
// The young generation the worker is measured with (bench/billing-run.ts); `npm run worker` passes the same.
import { readEnvConfig } from '../platform/config.js'
import { createLogger } from '../platform/logger.js'
import { openFromEnv } from '../platform/open-from-env.js'
import { checkArchiveDir, runMain } from '../platform/startup.js'

process.setSourceMapsEnabled(true)

/**
 * `npm run worker` (bin `telco-billing-worker`): the scheduler alone. It checks the settings,
 * migrates, then runs the scheduled jobs until SIGTERM/SIGINT; with Postgres any number of
 * workers may share one database.
 */
async function main(): Promise<void> {
  const config = readEnvConfig()
  const logger = createLogger({ level: config.logLevel })
  await checkArchiveDir(config)
  const platform = await openFromEnv(config, logger)
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
    await scheduler.stop()
    await platform.close()
    logger.info({}, 'worker-stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  // Announced only once the signal handlers are in place, so a supervisor may stop it at once.
  logger.info({ database: platform.database.description }, 'worker-started')
}

runMain('worker-startup-failed', main)
