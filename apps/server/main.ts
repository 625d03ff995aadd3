#!/usr/bin/env -S node --heap-growing-percent=50
// The old generation may grow by half its live size between full collections, not by V8's default
// of up to a few times it: over a long import the promoted garbage of each batch otherwise held the
// server far over its memory target, and the extra full collections cost no measurable CPU
// (bench/rating.ts; figures in bench/RESULTS.md). `npm start` passes the same, and the benches
// start the server with it (bench/support/api-server.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { toNodeHandler } from 'h3/node'
import { limitConnections, serverOptions } from '../../adapters/http/connection-limits.js'
import { findMissingArchives } from '../../core/disaster-recovery/archive-files.js'
import { ensureAdminKey } from '../platform/admin-key.js'
import { readEnvConfig } from '../platform/config.js'
import { createLogger } from '../platform/logger.js'
import { openFromEnv } from '../platform/open-from-env.js'
import { checkArchiveDir, listen, runMain } from '../platform/startup.js'

process.setSourceMapsEnabled(true)

/**
 * `npm start` (bin `telco-billing-server`): check the settings, take the port, migrate, print
 * the admin key on first start, serve the API until SIGTERM/SIGINT. The port is taken before
 * the database is touched, so a port in use changes nothing; requests that arrive meanwhile
 * wait for the platform.
 */
async function main(): Promise<void> {
  const config = readEnvConfig()
  const logger = createLogger({ level: config.logLevel })
  await checkArchiveDir(config)
  let handle: ((req: IncomingMessage, res: ServerResponse) => unknown) | null = null
  let stopping = false
  let opened: () => void
  const ready = new Promise<void>((resolve) => (opened = resolve))
  // Connections are capped and every phase of a request is timed (connection-limits.ts): slow,
  // stalled or never-reading clients are cut off instead of holding the server's memory.
  const timeout = config.requestTimeoutMs
  const server = createServer(serverOptions(config.connections, timeout), (req, res) => {
    // Once stopping, every answer closes its connection: clients that keep a keep-alive
    // connection busy would otherwise hold server.close() open for as long as they send.
    if (stopping) res.setHeader('connection', 'close')
    return handle ? handle(req, res) : void ready.then(() => handle!(req, res))
  })
  limitConnections(server, config.connections)
  const port = await listen(server, config.port, config.host)
  const platform = await openFromEnv(config, logger)
  // Each archive the database lists but storage lacks is logged (as an error) and marked Missing.
  await findMissingArchives(platform.context)
  const adminKey = await ensureAdminKey(platform)
  if (adminKey) {
    process.stdout.write(`Created API key "admin" (expert level 5, dataProtectionDownload). It is shown only once:\n${adminKey}\n`)
  }
  const scheduler = config.scheduler ? platform.createScheduler({ schedules: config.schedules, leaseMs: config.leaseMs, webhooks: { leaseMs: config.leaseMs } }) : null
  scheduler?.start()
  handle = toNodeHandler(platform.app)
  opened!()
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'stopping')
    // Finish in-flight requests, refuse new connections, then close the database.
    await Promise.all([
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
        // A request still unanswered after the request timeout does not hold the stop longer.
        setTimeout(() => server.closeAllConnections(), timeout).unref()
      }),
      scheduler?.stop(),
    ])
    await platform.close()
    logger.info({}, 'stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  const url = `http://${config.host}:${port}/backend/api/v1`
  logger.info({ url, port, database: platform.database.description }, 'listening')
  process.stdout.write(`Serving ${url} (database ${platform.database.description})\n`)
}

runMain('startup-failed', main)
