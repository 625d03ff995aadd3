import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { H3 } from 'h3'
import { toNodeHandler } from 'h3/node'
import { createHttpApp } from '../../adapters/http/app.js'
import { limitConnections, serverOptions } from '../../adapters/http/connection-limits.js'
import { healthRoute, operationRoutes } from '../../adapters/http/routes/health-routes.js'
import type { EnvConfig } from './config.js'
import type { Platform } from './platform.js'
import { listen } from './startup.js'

/**
 * The worker's own `GET /metrics` (BILLING_WORKER_METRICS_PORT). A worker's job counters and
 * durations live in its process, as Prometheus expects of every process it scrapes: each worker
 * serves its own, as each server does, and Prometheus adds them up across instances. Recording
 * runs in the database for the servers to read would need a table and its purge for what a
 * scrape of each process already gives. The app is the server's own, cut down to its operation
 * routes: the same `/metrics` handler and registry, the same key check (`METRICS_PUBLIC=true`
 * waives it), plus `/healthz` and `/readyz` for the worker's probes.
 */
export function metricsApp(platform: Platform, metricsPublic: boolean): H3 {
  const routes = [healthRoute(), ...operationRoutes({ readiness: platform.readiness, metrics: platform.metrics, metricsPublic })]
  return createHttpApp({ platform: platform.context, secrets: platform.secrets, routes, compression: false })
}

/** A listening metrics port; requests that arrive before `serve` wait for the platform. */
export interface MetricsEndpoint {
  readonly port: number
  serve(platform: Platform, metricsPublic: boolean): void
  close(): Promise<void>
}

/**
 * Takes the port before the database is touched, as the server does, so that a port in use is
 * one line naming BILLING_WORKER_METRICS_PORT and nothing is written.
 */
export async function listenForMetrics(config: EnvConfig, port: number): Promise<MetricsEndpoint> {
  let handle: ((req: IncomingMessage, res: ServerResponse) => unknown) | null = null
  let opened: () => void
  const ready = new Promise<void>((resolve) => (opened = resolve))
  const server = createServer(serverOptions(config.connections, config.requestTimeoutMs), (req, res) => (handle ? handle(req, res) : void ready.then(() => handle!(req, res))))
  limitConnections(server, config.connections)
  const bound = await listen(server, port, config.host, 'BILLING_WORKER_METRICS_PORT')
  return {
    port: bound,
    serve(platform, metricsPublic) {
      handle = toNodeHandler(metricsApp(platform, metricsPublic))
      opened!()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
