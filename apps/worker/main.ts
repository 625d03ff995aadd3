import { readEnvConfig } from '../platform/config.js'
import { jsonLogger } from '../platform/logger.js'
import { openFromEnv } from '../platform/open-from-env.js'

/**
 * `npm run worker`: the scheduler alone. It migrates, then runs the scheduled jobs until
 * SIGTERM/SIGINT; with Postgres any number of workers may share one database.
 */
async function main(): Promise<void> {
  const config = readEnvConfig()
  const logger = jsonLogger()
  const platform = await openFromEnv(config, logger)
  const scheduler = platform.createScheduler({ leaseMs: config.leaseMs })
  scheduler.start()
  const keepAlive = setInterval(() => {}, 1 << 30)
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('worker-stopping', { signal })
    clearInterval(keepAlive)
    await scheduler.stop()
    await platform.close()
    logger.info('worker-stopped', {})
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  // Announced only once the signal handlers are in place, so a supervisor may stop it at once.
  logger.info('worker-started', { database: platform.database.description })
}

main().catch((error) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', event: 'worker-startup-failed', error: (error as Error).message })}\n`)
  process.exit(1)
})
