import type { WebhookDelivery } from './jobs.js'
import 'reflect-metadata'
import type { H3 } from 'h3'
import { Container } from 'inversify'
import { sql } from 'kysely'
import type { Route } from '../../adapters/http/route.js'
import type { RateLimit } from '../../adapters/http/rate-limit.js'
import type { Readiness } from '../../adapters/http/routes/health-routes.js'
import type { PrometheusMetrics } from '../../adapters/metrics/prometheus-metrics.js'
import { connect, wrapKysely, type Database } from '../../adapters/persistence/connect.js'
import type { DialectName } from '../../adapters/persistence/dialect/dialect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import type { AnyDb } from '../../adapters/persistence/schema/tables.js'
import type { JobLogEntry, Scheduler } from '../../adapters/scheduler/scheduler.js'
import type { PlatformContext } from '../../core/platform.js'
import type { Clock } from '../../core/ports/clock.js'
import type { KeySecrets } from '../../core/ports/key-hasher.js'
import type { PasswordHasher } from '../../core/ports/password-hasher.js'
import type { PaymentLinkProvider } from '../../core/ports/payment-link-provider.js'
import type { Presets } from '../../core/presets/presets.js'
import { coreBindings } from './core-bindings.js'
import type { Schedules } from './jobs.js'
import type { Logger } from './logger.js'
import type { RequestLogMode } from './request-lines.js'
import { serviceBindings, type SchedulerFactory } from './service-bindings.js'
import { TYPES } from './tokens.js'
import { numberEarlierInvoices } from '../../core/numbering/number-invoices.js'
import type { InvoiceMailer } from '../../core/ports/invoice-mailer.js'

export interface PlatformConfig {
  /** `sqlite:<file>`, `sqlite::memory:` or `postgres://…`; required unless `kysely` is given. */
  readonly databaseUrl?: string
  /** An existing Kysely instance to use instead of `databaseUrl`; the caller owns and closes it. */
  readonly kysely?: { readonly db: AnyDb; readonly dialect: DialectName }
  /** Postgres schema to live in (created when missing). */
  readonly schema?: string
  readonly presets?: Presets
  readonly clock?: Clock
  readonly logger?: Logger
  /** Creates payment links (default: URL templates from the presets). */
  readonly paymentLinks?: PaymentLinkProvider
  /**
   * Hashes and checks portal passwords and PINs (default: scrypt, N = 16384, about 60 ms of CPU
   * a check). A host with its own scheme supplies it; hashes stored by one hasher are checked by
   * the same one only.
   */
  readonly passwordHasher?: PasswordHasher
  /** Called with the SQL of every query and the milliseconds it took (diagnostics, query-count tests). */
  readonly onQuery?: (sql: string, ms: number) => void
  /** `sqlite::memory:` only: start from a copy of this serialized database (`ConnectOptions.sqliteImage`). */
  readonly sqliteImage?: Buffer
  /** Skip migrations (they ran elsewhere). */
  readonly skipMigrations?: boolean
  /** Disaster-recovery archive password (BILLING_DR_PASSWORD); without it no archive is written. */
  readonly drPassword?: string | null
  /** Where disaster-recovery archives are written (BILLING_DR_DIR; default ./data/dr). */
  readonly drDir?: string
  /** Days a disaster-recovery archive stays available (default 7). */
  readonly drRetentionDays?: number
  /** Requests per API key (BILLING_RATE_LIMIT); no limit when absent or null. */
  readonly rateLimit?: RateLimit | null
  /** Origins whose browsers may call the HTTP API (`*` for any); none when absent. */
  readonly corsOrigins?: readonly string[]
  /** Milliseconds of a monotonic clock for the rate limit (tests pass their own). */
  readonly rateLimitClock?: () => number
  /** A request not answered within this many milliseconds answers 503001 (BILLING_REQUEST_TIMEOUT_MS); none when absent. */
  readonly requestTimeoutMs?: number
  /** A body read waits this long at most for the client's next bytes, else 408 (BILLING_BODY_TIMEOUT_MS); none when absent. */
  readonly bodyTimeoutMs?: number
  /**
   * How long an active API key's lookup is kept (BILLING_KEY_CACHE_MS, default 1000; 0 keeps
   * none). Revoking through this platform takes effect at once; revoking from another process
   * (`npm run apikey -- revoke`) within this time.
   */
  readonly keyCacheMs?: number
  /** METRICS_PUBLIC=true: `GET /metrics` answers without a key. */
  readonly metricsPublic?: boolean
  /** BILLING_LOG_REQUESTS: which requests get a log line at info (default all; request-lines.ts). */
  readonly logRequests?: RequestLogMode
  /**
   * BILLING_WEBHOOK_ALLOW_PRIVATE=true: webhooks may point at loopback, private, link-local
   * (cloud metadata) and other non-public addresses. Off by default: such URLs are refused
   * when a webhook is saved and each delivery checks the address it connects to.
   */
  readonly allowPrivateWebhooks?: boolean
  /** BILLING_WEBHOOK_TIMEOUT_MS: how long a webhook delivery attempt waits for its answer (default 10000, contract 12). */
  readonly webhookTimeoutMs?: number
  /** BILLING_PUBLIC_URL: an https URL marks the portal's cookies Secure (contract 14.3). */
  readonly publicUrl?: string | null
  /** BILLING_TRUST_PROXY=true: `X-Forwarded-Proto: https` marks the portal's cookies Secure. */
  readonly trustProxy?: boolean
  /** How long an Idempotency-Key's claim lasts unrenewed (BILLING_LEASE_MS): a killed request's key is free after it. */
  readonly leaseMs?: number
  /** BILLING_SMTP_URL: invoice emails over SMTP; without it `.eml` files under `mailDir` (contract 14.2). */
  readonly smtpUrl?: string | null
  /** BILLING_MAIL_DIR (default ./data/mail). */
  readonly mailDir?: string
  /** Sends invoice emails (tests, embedders); default from `smtpUrl` / `mailDir`. */
  readonly mailer?: InvoiceMailer
}

/** Settings of a scheduler; `onJobEnd` replaces the job log line (metrics still count the run). */
export interface SchedulerSettings {
  readonly schedules?: Schedules
  readonly leaseMs?: number
  readonly onJobEnd?: (entry: JobLogEntry) => void
  /** Webhook delivery timing (tests shorten a webhook's lease); the sender is the platform's own unless given. */
  readonly webhooks?: Partial<Omit<WebhookDelivery, 'leases'>>
  /** How long a claimed invoice delivery stays with its worker (default 30 minutes). */
  readonly invoiceDeliveryLeaseMs?: number
}

/** A running platform: what the server, the worker and the library resolve from its container. */
export interface Platform {
  readonly context: PlatformContext
  readonly app: H3
  readonly routes: readonly Route[]
  readonly database: Database
  readonly secrets: KeySecrets
  readonly logger: Logger
  readonly metrics: PrometheusMetrics
  readonly readiness: Readiness
  /** Where invoice emails go (contract 14.2). */
  readonly mailer: InvoiceMailer
  /** A scheduler for the platform's jobs (not started). */
  createScheduler(settings?: SchedulerSettings): Scheduler
  close(): Promise<void>
}

/**
 * The composition root shared by the server, the worker and embedding applications: opens and
 * migrates the database, loads the bindings (core-bindings.ts, service-bindings.ts) and
 * resolves what the callers use. Members are resolved when first read: a worker never builds
 * the HTTP app.
 */
export async function openPlatform(config: PlatformConfig): Promise<Platform> {
  const database = openDatabase(config)
  try {
    // A wrapped SQLite connection was opened by the caller: foreign keys are what we rely on.
    if (config.kysely?.dialect === 'sqlite') await sql`pragma foreign_keys = ON`.execute(database.db)
    if (!config.skipMigrations) await migrate(database, config.schema)
  } catch (e) {
    await database.close()
    throw e
  }
  const container = new Container({ defaultScope: 'Singleton' })
  container.load(coreBindings(config, database), serviceBindings(config))
  const get = <T>(token: symbol) => container.get<T>(token)
  // Invoices raised before invoice numbers existed get theirs once, in the presets' format (contract 14.1).
  if (!config.skipMigrations) {
    try {
      await numberEarlierInvoices(get<PlatformContext>(TYPES.PlatformContext))
    } catch (e) {
      await database.close()
      throw e
    }
  }
  return {
    get context() {
      return get<PlatformContext>(TYPES.PlatformContext)
    },
    get app() {
      return get<H3>(TYPES.HttpApp)
    },
    get routes() {
      return get<readonly Route[]>(TYPES.Routes)
    },
    get secrets() {
      return get<KeySecrets>(TYPES.KeySecrets)
    },
    get logger() {
      return get<Logger>(TYPES.Logger)
    },
    get metrics() {
      return get<PrometheusMetrics>(TYPES.Metrics)
    },
    get readiness() {
      return get<Readiness>(TYPES.Readiness)
    },
    get mailer() {
      return get<InvoiceMailer>(TYPES.Mailer)
    },
    database,
    createScheduler: (settings) => get<SchedulerFactory>(TYPES.SchedulerFactory)(settings),
    close: () => database.close(),
  }
}

function openDatabase(config: PlatformConfig): Database {
  if (config.kysely) return wrapKysely(config.kysely.db, config.kysely.dialect)
  if (!config.databaseUrl) throw new Error('give databaseUrl (sqlite:<file>, sqlite::memory: or postgres://...) or kysely')
  const logger = config.logger
  // A connection that failed is dropped and the next query opens another; its request fails.
  const onConnectionLost = logger && ((error: Error & { code?: string }) => logger.warn({ error: error.message, code: error.code }, 'database-connection-lost'))
  return connect(config.databaseUrl, { schema: config.schema, onQuery: config.onQuery, sqliteImage: config.sqliteImage, onConnectionLost })
}
