import 'reflect-metadata'
import { Container } from 'inversify'
import { DEFAULT_KEY_CACHE_MS } from './config.js'
import type { H3 } from 'h3'
import { createHttpApp } from '../../adapters/http/app.js'
import { buildRoutes } from '../../adapters/http/routes/route-table.js'
import type { Route } from '../../adapters/http/route.js'
import type { RateLimit } from '../../adapters/http/rate-limit.js'
import { sql, type Kysely } from 'kysely'
import { connect, wrapKysely, type Database } from '../../adapters/persistence/connect.js'
import type { DialectName } from '../../adapters/persistence/dialect/dialect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { KyselyJobLeases } from '../../adapters/persistence/repositories/kysely-job-leases.js'
import { KyselyIdempotencyStore } from '../../adapters/persistence/repositories/kysely-idempotency-store.js'
import { Scheduler, type JobLogEntry } from '../../adapters/scheduler/scheduler.js'
import { platformJobs, readSchedules, type Schedules } from './jobs.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { SystemClock } from '../../adapters/persistence/system-clock.js'
import { nodeKeySecrets } from '../../adapters/security/node-key-secrets.js'
import { scryptPasswordHasher } from '../../adapters/security/scrypt-password-hasher.js'
import { nodeRandom } from '../../adapters/security/node-random.js'
import { nodeDigest } from '../../adapters/security/node-digest.js'
import { templatePaymentLinkProvider } from '../../adapters/payments/template-payment-link-provider.js'
import type { PaymentLinkProvider } from '../../core/ports/payment-link-provider.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import { InputValidator } from '../../core/fields/validate.js'
import type { PlatformContext } from '../../core/platform.js'
import { DEFAULT_RETENTION_DAYS, type DisasterRecovery } from '../../core/disaster-recovery/archive-files.js'
import { FileArchiver } from '../../adapters/archive/file-archiver.js'
import type { Clock } from '../../core/ports/clock.js'
import type { KeySecrets } from '../../core/ports/key-hasher.js'
import type { Store } from '../../core/ports/store.js'
import { defaultPresets, type Presets } from '../../core/presets/presets.js'
import { storedResources } from './stored-resources.js'
import { silentLogger, type Logger } from './logger.js'
import { TYPES } from './tokens.js'

export interface PlatformConfig {
  /** `sqlite:<file>`, `sqlite::memory:` or `postgres://…`; required unless `kysely` is given. */
  readonly databaseUrl?: string
  /** An existing Kysely instance to use instead of `databaseUrl`; the caller owns and closes it. */
  readonly kysely?: { readonly db: Kysely<any>; readonly dialect: DialectName }
  /** Postgres schema to live in (created when missing). */
  readonly schema?: string
  readonly presets?: Presets
  readonly clock?: Clock
  readonly logger?: Logger
  /** Creates payment links (default: URL templates from the presets). */
  readonly paymentLinks?: PaymentLinkProvider
  /** Called with the SQL of every query (diagnostics, query-count tests). */
  readonly onQuery?: (sql: string) => void
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
  /** Milliseconds of a monotonic clock for the rate limit (tests pass their own). */
  readonly rateLimitClock?: () => number
  /** A request not answered within this many milliseconds answers 503001 (BILLING_REQUEST_TIMEOUT_MS); none when absent. */
  readonly requestTimeoutMs?: number
  /**
   * How long an active API key's lookup is kept (BILLING_KEY_CACHE_MS, default 1000; 0 keeps
   * none). Revoking through this platform takes effect at once; revoking from another process
   * (`npm run apikey -- revoke`) within this time.
   */
  readonly keyCacheMs?: number
}

/** A running platform: the use-case context, the HTTP app and the database, wired by inversify. */
export interface Platform {
  readonly context: PlatformContext
  readonly app: H3
  readonly routes: readonly Route[]
  readonly database: Database
  readonly secrets: KeySecrets
  readonly logger: Logger
  readonly container: Container
  /** A scheduler for the platform's jobs (not started). */
  createScheduler(options?: { schedules?: Schedules; leaseMs?: number; onJobEnd?: (entry: JobLogEntry) => void }): Scheduler
  close(): Promise<void>
}

/** The composition root shared by the server, the worker and embedding applications. */
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
  const c = new Container()
  c.bind<Database>(TYPES.Database).toConstantValue(database)
  c.bind<Clock>(TYPES.Clock).toConstantValue(config.clock ?? new SystemClock())
  c.bind<Presets>(TYPES.Presets).toConstantValue(config.presets ?? defaultPresets)
  c.bind<Logger>(TYPES.Logger).toConstantValue(config.logger ?? silentLogger)
  c.bind<KeySecrets>(TYPES.KeySecrets).toConstantValue(nodeKeySecrets)
  c.bind<ReadonlyMap<ResourceName, Resource>>(TYPES.Resources).toConstantValue(storedResources)
  c.bind<Store>(TYPES.Store)
    .toResolvedValue((db: Database, resources: ReadonlyMap<ResourceName, Resource>) => new KyselyStore(db.db, db.dialect, resources, { keyCacheMs: config.keyCacheMs ?? DEFAULT_KEY_CACHE_MS }), [
      TYPES.Database,
      TYPES.Resources,
    ])
    .inSingletonScope()
  c.bind<InputValidator>(TYPES.Validator)
    .toResolvedValue((presets: Presets) => new InputValidator(presets), [TYPES.Presets])
    .inSingletonScope()
  c.bind<DisasterRecovery>(TYPES.DisasterRecovery)
    .toResolvedValue(
      (db: Database) => ({
        archiver: new FileArchiver(db, { dir: config.drDir ?? './data/dr', password: config.drPassword ?? null }),
        retentionDays: config.drRetentionDays ?? DEFAULT_RETENTION_DAYS,
      }),
      [TYPES.Database],
    )
    .inSingletonScope()
  c.bind<PlatformContext>(TYPES.PlatformContext)
    .toResolvedValue(
      (
        store: Store,
        validator: InputValidator,
        clock: Clock,
        presets: Presets,
        resources: ReadonlyMap<ResourceName, Resource>,
        disasterRecovery: DisasterRecovery,
      ) => ({
        store,
        validator,
        clock,
        presets,
        resources,
        passwords: scryptPasswordHasher,
        random: nodeRandom,
        paymentLinks: config.paymentLinks ?? templatePaymentLinkProvider,
        digest: nodeDigest,
        disasterRecovery,
      }),
      [TYPES.Store, TYPES.Validator, TYPES.Clock, TYPES.Presets, TYPES.Resources, TYPES.DisasterRecovery],
    )
    .inSingletonScope()
  c.bind<readonly Route[]>(TYPES.Routes)
    .toResolvedValue((resources: ReadonlyMap<ResourceName, Resource>) => buildRoutes(resources), [TYPES.Resources])
    .inSingletonScope()
  c.bind<H3>(TYPES.HttpApp)
    .toResolvedValue(
      (platform: PlatformContext, secrets: KeySecrets, routes: readonly Route[], logger: Logger) =>
        createHttpApp({
          platform,
          secrets,
          routes,
          rateLimit: config.rateLimit,
          rateLimitClock: config.rateLimitClock,
          handlerTimeoutMs: config.requestTimeoutMs,
          idempotency: new KyselyIdempotencyStore(database.db, database.dialect),
          onRequestEnd: (entry) => logger.info('request', entry),
          onUnexpectedError: (error, requestId) =>
            logger.error('unexpected', { requestId, error: error instanceof Error ? error.stack : String(error) }),
        }),
      [TYPES.PlatformContext, TYPES.KeySecrets, TYPES.Routes, TYPES.Logger],
    )
    .inSingletonScope()

  return {
    context: c.get<PlatformContext>(TYPES.PlatformContext),
    app: c.get<H3>(TYPES.HttpApp),
    routes: c.get<readonly Route[]>(TYPES.Routes),
    database,
    secrets: nodeKeySecrets,
    logger: c.get<Logger>(TYPES.Logger),
    container: c,
    createScheduler: (o = {}) =>
      new Scheduler({
        jobs: platformJobs(c.get<PlatformContext>(TYPES.PlatformContext), o.schedules ?? readSchedules()),
        leases: new KyselyJobLeases(database.db, database.dialect),
        leaseMs: o.leaseMs,
        onJobEnd: o.onJobEnd ?? ((entry) => c.get<Logger>(TYPES.Logger).info('job', { ...entry })),
      }),
    close: () => database.close(),
  }
}

function openDatabase(config: PlatformConfig): Database {
  if (config.kysely) return wrapKysely(config.kysely.db, config.kysely.dialect)
  if (!config.databaseUrl) throw new Error('give databaseUrl (sqlite:<file>, sqlite::memory: or postgres://...) or kysely')
  return connect(config.databaseUrl, { schema: config.schema, onQuery: config.onQuery })
}
