import type { H3 } from 'h3'
import { ContainerModule } from 'inversify'
import { createHttpApp } from '../../adapters/http/app.js'
import type { Route } from '../../adapters/http/route.js'
import type { Readiness } from '../../adapters/http/routes/health-routes.js'
import { buildRoutes } from '../../adapters/http/routes/route-table.js'
import { PrometheusMetrics, type RunProgressSample } from '../../adapters/metrics/prometheus-metrics.js'
import type { Database } from '../../adapters/persistence/connect.js'
import { databaseReadiness } from '../../adapters/persistence/database-readiness.js'
import { KyselyIdempotencyStore } from '../../adapters/persistence/repositories/kysely-idempotency-store.js'
import { KyselyJobLeases } from '../../adapters/persistence/repositories/kysely-job-leases.js'
import { KyselyPortalSessions } from '../../adapters/persistence/repositories/kysely-portal-sessions.js'
import { portalAnswers } from '../../adapters/portal/portal-answers.js'
import { portalRoutes } from '../../adapters/portal/portal.js'
import { PORTAL } from '../../adapters/portal/portal-http.js'
import { Scheduler } from '../../adapters/scheduler/scheduler.js'
import { HttpWebhookSender } from '../../adapters/webhooks/http-webhook-sender.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import type { PlatformContext } from '../../core/platform.js'
import type { IdempotencyStore } from '../../core/ports/idempotency-store.js'
import type { JobLeases } from '../../core/ports/job-leases.js'
import type { KeySecrets } from '../../core/ports/key-hasher.js'
import type { PortalSessions } from '../../core/ports/portal-sessions.js'
import { logJobEnd, platformJobs, readSchedules } from './jobs.js'
import { monthPartitionsJobs } from './month-partitions-job.js'
import { requestLineLogger, type Logger } from './logger.js'
import { requestLineWanted } from './request-lines.js'
import type { PlatformConfig, SchedulerSettings } from './platform.js'
import { TYPES } from './tokens.js'
import type { InvoiceMailer } from '../../core/ports/invoice-mailer.js'
import { SmtpMailer } from '../../adapters/delivery/smtp-mailer.js'
import { EmlFileMailer } from '../../adapters/delivery/eml-file-mailer.js'
import { renderInvoicePdf } from '../../adapters/documents/pdf-invoice.js'

export type SchedulerFactory = (settings?: SchedulerSettings) => Scheduler

/** What serves and runs the use cases: metrics, readiness, the HTTP app, and the scheduler's jobs. */
export function serviceBindings(config: PlatformConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<PrometheusMetrics>(TYPES.Metrics)
      .toResolvedValue((ctx: PlatformContext) => {
        const metrics = new PrometheusMetrics({ runningBillingRuns: () => runningBillingRuns(ctx) })
        // Contract 13: the event delivery backlog, read from the outbox at each scrape.
        metrics.eventBacklog(() => ctx.store.webhookOutbox.backlog())
        return metrics
      }, [TYPES.PlatformContext])
      .inSingletonScope()
    bind<Readiness>(TYPES.Readiness)
      .toResolvedValue((database: Database) => databaseReadiness(database, config.schema), [TYPES.Database])
      .inSingletonScope()
    bind<IdempotencyStore>(TYPES.IdempotencyStore)
      .toResolvedValue((database: Database) => new KyselyIdempotencyStore(database.db, database.dialect), [TYPES.Database])
      .inSingletonScope()
    bind<PortalSessions>(TYPES.PortalSessions)
      .toResolvedValue((database: Database) => new KyselyPortalSessions(database.db, database.dialect), [TYPES.Database])
      .inSingletonScope()
    bind<JobLeases>(TYPES.JobLeases)
      .toResolvedValue((database: Database) => new KyselyJobLeases(database.db, database.dialect), [TYPES.Database])
      .inSingletonScope()
    bind<readonly Route[]>(TYPES.Routes)
      .toResolvedValue(
        (resources: ReadonlyMap<ResourceName, Resource>, readiness: Readiness, metrics: PrometheusMetrics) =>
          buildRoutes(resources, undefined, { readiness, metrics, metricsPublic: config.metricsPublic ?? false }),
        [TYPES.Resources, TYPES.Readiness, TYPES.Metrics],
      )
      .inSingletonScope()
    bind<H3>(TYPES.HttpApp)
      .toResolvedValue(
        (platform: PlatformContext, secrets: KeySecrets, routes: readonly Route[], idempotency: IdempotencyStore, logger: Logger, metrics: PrometheusMetrics, sessions: PortalSessions) => {
          const requestLines = requestLineLogger(logger)
          const lineWanted = requestLineWanted(config.logRequests ?? 'all')
          const portal = { platform, sessions, publicUrl: config.publicUrl, trustProxy: config.trustProxy }
          return createHttpApp({
            platform,
            secrets,
            routes,
            idempotency,
            rateLimit: config.rateLimit,
            rateLimitClock: config.rateLimitClock,
            handlerTimeoutMs: config.requestTimeoutMs,
            bodyTimeoutMs: config.bodyTimeoutMs,
            idempotencyLeaseMs: config.leaseMs,
            corsOrigins: config.corsOrigins,
            pages: { prefix: PORTAL, routes: portalRoutes(portal), answers: portalAnswers(portal) },
            onRequestEnd: (entry) => {
              metrics.observeRequest(entry)
              if (lineWanted(entry)) requestLines.info(entry, 'request')
            },
            onUnexpectedError: (err, requestId) => logger.error({ requestId, err }, 'unexpected'),
          })
        },
        [TYPES.PlatformContext, TYPES.KeySecrets, TYPES.Routes, TYPES.IdempotencyStore, TYPES.Logger, TYPES.Metrics, TYPES.PortalSessions],
      )
      .inSingletonScope()
    bind<InvoiceMailer>(TYPES.Mailer)
      .toResolvedValue(() => config.mailer ?? (config.smtpUrl ? new SmtpMailer(config.smtpUrl) : new EmlFileMailer(config.mailDir ?? './data/mail')))
      .inSingletonScope()
    bind<SchedulerFactory>(TYPES.SchedulerFactory).toResolvedValue(
      (ctx: PlatformContext, leases: JobLeases, logger: Logger, metrics: PrometheusMetrics, mailer: InvoiceMailer, sessions: PortalSessions, database: Database, idempotency: IdempotencyStore) =>
        (settings = {}) => {
          const log = settings.onJobEnd ?? logJobEnd(logger)
          const sending = { mailer, renderPdf: renderInvoicePdf, leaseMs: settings.invoiceDeliveryLeaseMs }
          const schedules = settings.schedules ?? readSchedules()
          return new Scheduler({
            jobs: [
              ...platformJobs(ctx, schedules, logger, { sender: new HttpWebhookSender({ allowPrivate: config.allowPrivateWebhooks ?? false, timeoutMs: config.webhookTimeoutMs }), ...settings.webhooks, leases }, settings.leaseMs, sending, sessions, idempotency),
              ...monthPartitionsJobs(database, ctx.clock, schedules.monthPartitions),
            ],
            leases,
            leaseMs: settings.leaseMs,
            onJobEnd: (entry) => {
              metrics.observeJob(entry)
              log(entry)
            },
          })
        },
      [TYPES.PlatformContext, TYPES.JobLeases, TYPES.Logger, TYPES.Metrics, TYPES.Mailer, TYPES.PortalSessions, TYPES.Database, TYPES.IdempotencyStore],
    )
  })
}

/** The runs in progress with what they have done so far, for the metrics' progress gauges. */
async function runningBillingRuns(ctx: PlatformContext): Promise<RunProgressSample[]> {
  const running = await ctx.store.repository('billingRuns').list({ where: [{ op: 'eq', column: 'status', value: 'Running' }], limit: 100, storedOnly: true })
  return running.map((run) => ({
    runID: run.id,
    customersTotal: run.customersTotal as number | null,
    customersDone: run.customersDone as number | null,
    invoiceCount: run.invoiceCount as number | null,
    estimatedCompletion: typeof run.estimatedCompletion === 'string' ? Date.parse(run.estimatedCompletion) / 1000 : null,
  }))
}
