import { createServer } from 'node:http'
import { toNodeHandler } from 'h3/node'
import { ensureAdminKey } from '../platform/admin-key.js'
import { readEnvConfig } from '../platform/config.js'
import { jsonLogger } from '../platform/logger.js'
import { openFromEnv } from '../platform/open-from-env.js'

/** `npm start`: migrate, print the admin key on first start, serve the API until SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = readEnvConfig()
  const logger = jsonLogger()
  const platform = await openFromEnv(config, logger)
  const adminKey = await ensureAdminKey(platform)
  if (adminKey) {
    process.stdout.write(`Created API key "admin" (expert level 5, dataProtectionDownload). It is shown only once:\n${adminKey}\n`)
  }
  const scheduler = config.scheduler ? platform.createScheduler({ leaseMs: config.leaseMs }) : null
  scheduler?.start()
  // Slow or stalled clients are cut off (408): the whole request must arrive within the
  // timeout, checked every second rather than Node's default 30.
  const timeout = config.requestTimeoutMs
  const server = createServer(
    { requestTimeout: timeout, headersTimeout: Math.min(timeout, 60_000), connectionsCheckingInterval: Math.min(timeout, 1_000) },
    toNodeHandler(platform.app),
  )
  server.keepAliveTimeout = 65_000
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('stopping', { signal })
    // Finish in-flight requests, refuse new connections, then close the database.
    await Promise.all([
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      }),
      scheduler?.stop(),
    ])
    await platform.close()
    logger.info('stopped', {})
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  logger.info('listening', { url: `http://${config.host}:${port}/backend/api/v1`, database: platform.database.description })
  process.stdout.write(`Serving http://${config.host}:${port}/backend/api/v1 (database ${platform.database.description})\n`)
}

main().catch((error) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', event: 'startup-failed', error: (error as Error).message })}\n`)
  process.exit(1)
})
