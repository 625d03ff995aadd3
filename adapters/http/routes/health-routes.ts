import { json, requestIdOf } from '../respond.js'
import type { Route } from '../route.js'

/** Whether this server can take traffic; `reason` says what is missing when not. */
export interface Readiness {
  check(): Promise<{ readonly ready: true } | { readonly ready: false; readonly reason: string }>
}

/** The metrics exposition (Prometheus text format). */
export interface MetricsExposition {
  readonly contentType: string
  text(): Promise<string>
}

/** What the operations routes answer from, and whether scraping needs a key. */
export interface Operations {
  readonly readiness: Readiness
  readonly metrics: MetricsExposition
  /** METRICS_PUBLIC=true: `/metrics` answers without a key (a scraper on a private network). */
  readonly metricsPublic: boolean
}

/** `GET /healthz`: 200 when the database answers (no authentication). */
export function healthRoute(): Route {
  return {
    method: 'GET',
    path: '/healthz',
    absolute: true,
    public: true,
    doc: { summary: 'Health check: 200 when the database answers', kind: 'other' },
    async handler(event, ctx) {
      try {
        await ctx.platform.store.apiKeys.count()
        return json(event, 200, { status: 'ok' })
      } catch {
        return json(event, 503, { status: 'unavailable' })
      }
    },
  }
}

/**
 * `GET /readyz` for load balancers (public, as `/healthz`): 200 once every migration this
 * version knows is applied and the database answers; 503 with the reason otherwise.
 * `GET /metrics` for Prometheus: a key is needed unless `metricsPublic`.
 */
export function operationRoutes(ops: Operations): Route[] {
  return [
    {
      method: 'GET',
      path: '/readyz',
      absolute: true,
      public: true,
      doc: { summary: 'Readiness: 200 when migrations are applied and the database answers, else 503 with the reason', kind: 'other' },
      async handler(event) {
        const state = await ops.readiness.check()
        return state.ready ? json(event, 200, { status: 'ready' }) : json(event, 503, { status: 'unavailable', reason: state.reason })
      },
    },
    {
      method: 'GET',
      path: '/metrics',
      absolute: true,
      public: ops.metricsPublic,
      doc: { summary: 'Metrics in the Prometheus text format: requests, jobs, billing-run progress', kind: 'other', contentType: ops.metrics.contentType },
      async handler(event) {
        const text = await ops.metrics.text()
        return new Response(text, { status: 200, headers: { 'content-type': ops.metrics.contentType, 'x-request-id': requestIdOf(event), 'cache-control': 'no-store' } })
      },
    },
  ]
}
