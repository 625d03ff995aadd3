import { readFileSync } from 'node:fs'
import type { LevelWithSilent } from 'pino'
import { parseCorsOrigins } from '../../adapters/http/middleware/cors.js'
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../../adapters/http/connection-limits.js'
import { DEFAULT_RATE_LIMIT, parseRateLimit, type RateLimit } from '../../adapters/http/rate-limit.js'
import { mergePresets, defaultPresets, type Presets } from '../../core/presets/presets.js'
import { isSigningSecret, SIGNING_SECRET_RULE } from '../../core/presets/signing-secret.js'
import { checkStandardFeatures } from '../../core/features/standard-feature.js'
import { readSchedules, type Schedules } from './jobs.js'
import { LOG_LEVELS } from './logger.js'
import { REQUEST_LOG_MODES, type RequestLogMode } from './request-lines.js'
import { checkSmtpUrl } from '../../adapters/delivery/smtp-mailer.js'
import { WEBHOOK_TIMEOUT_MS } from '../../adapters/webhooks/http-webhook-sender.js'
import { listenPort, milliseconds, positiveInt } from './env-numbers.js'

/** Settings from the environment (contract 1). */
export interface EnvConfig {
  readonly databaseUrl: string
  readonly host: string
  readonly port: number
  readonly presets: Presets
  readonly presetsFile: string | null
  readonly drPassword: string | null
  readonly drDir: string
  /** Whether BILLING_DR_DIR was given: a given directory must exist, the default one is made. */
  readonly drDirGiven: boolean
  readonly drRetentionDays: number
  readonly scheduler: boolean
  /** Requests per API key (BILLING_RATE_LIMIT, default "100/2"); null when "0". */
  readonly rateLimit: RateLimit | null
  /** Socket request/headers timeout and handler deadline (BILLING_REQUEST_TIMEOUT_MS, default 30000). */
  readonly requestTimeoutMs: number
  /** The connection limits of the HTTP server (BILLING_MAX_CONNECTIONS, BILLING_*_TIMEOUT_MS). */
  readonly connections: ConnectionLimits
  /** How long a job lease lasts unrenewed: a killed worker's job resumes elsewhere after it. */
  readonly leaseMs: number
  /** How long an active API key's lookup is kept (BILLING_KEY_CACHE_MS, default 1000; 0 keeps none). */
  readonly keyCacheMs: number
  /** LOG_LEVEL (default info). */
  readonly logLevel: LevelWithSilent
  /** BILLING_LOG_REQUESTS (default all): which requests get a log line. */
  readonly logRequests: RequestLogMode
  /** METRICS_PUBLIC=true: `/metrics` needs no key. */
  readonly metricsPublic: boolean
  /** BILLING_CORS_ORIGINS: origins whose browsers may call the API (`*` for any). */
  readonly corsOrigins: readonly string[]
  /** BILLING_WEBHOOK_ALLOW_PRIVATE=true: webhooks may reach loopback, private and link-local addresses. */
  readonly allowPrivateWebhooks: boolean
  /** BILLING_WEBHOOK_TIMEOUT_MS (default 10000, contract 12): a delivery attempt not answered within it fails and is retried. */
  readonly webhookTimeoutMs: number
  /** BILLING_PUBLIC_URL: where browsers reach the server; an https URL marks portal cookies Secure. */
  readonly publicUrl: string | null
  /** BILLING_TRUST_PROXY=true: trust `X-Forwarded-Proto` from the proxy in front (portal cookies Secure behind it). */
  readonly trustProxy: boolean
  /** The jobs' schedules, checked (BILLING_SCHEDULE_*, BILLING_BATCH_*). */
  readonly schedules: Schedules
  /** BILLING_SMTP_URL: where invoice emails go (contract 14.2); null writes .eml files instead. */
  readonly smtpUrl: string | null
  /** BILLING_MAIL_DIR (default ./data/mail): where .eml files go without SMTP. */
  readonly mailDir: string
  /** BILLING_WORKER_METRICS_PORT: `npm run worker` serves `GET /metrics` on it (at HOST); none when unset. */
  readonly workerMetricsPort: number | null
}

/**
 * Every setting from the environment, checked: a bad value throws one message naming its
 * variable, before the process opens the database (contract 13).
 */
export function readEnvConfig(env: NodeJS.ProcessEnv = process.env): EnvConfig {
  const port = listenPort('PORT', env.PORT || '8080')
  const presetsFile = env.BILLING_PRESETS_FILE || null
  const requestTimeoutMs = milliseconds('BILLING_REQUEST_TIMEOUT_MS', env.BILLING_REQUEST_TIMEOUT_MS, 30_000)
  return {
    databaseUrl: databaseUrl(env.DATABASE_URL || 'sqlite:./data/billing.sqlite'),
    host: env.HOST || '127.0.0.1',
    port,
    presets: withProviderSecrets(presetsFile ? loadPresetsFile(presetsFile) : defaultPresets, env),
    presetsFile,
    drPassword: env.BILLING_DR_PASSWORD || null,
    drDir: env.BILLING_DR_DIR || './data/dr',
    drDirGiven: !!env.BILLING_DR_DIR,
    drRetentionDays: positiveInt('BILLING_DR_RETENTION_DAYS', env.BILLING_DR_RETENTION_DAYS, 7),
    scheduler: oneOf('BILLING_SCHEDULER', env.BILLING_SCHEDULER, ['on', 'off'], 'on') === 'on',
    rateLimit: parseRateLimit(env.BILLING_RATE_LIMIT || DEFAULT_RATE_LIMIT),
    requestTimeoutMs,
    connections: readConnectionLimits(env, requestTimeoutMs),
    leaseMs: milliseconds('BILLING_LEASE_MS', env.BILLING_LEASE_MS, 60_000),
    keyCacheMs: milliseconds('BILLING_KEY_CACHE_MS', env.BILLING_KEY_CACHE_MS, DEFAULT_KEY_CACHE_MS, 'zero allowed'),
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, 'info'),
    logRequests: oneOf('BILLING_LOG_REQUESTS', env.BILLING_LOG_REQUESTS, REQUEST_LOG_MODES, 'all'),
    metricsPublic: oneOf('METRICS_PUBLIC', env.METRICS_PUBLIC, ['true', 'false'], 'false') === 'true',
    corsOrigins: parseCorsOrigins(env.BILLING_CORS_ORIGINS),
    allowPrivateWebhooks: oneOf('BILLING_WEBHOOK_ALLOW_PRIVATE', env.BILLING_WEBHOOK_ALLOW_PRIVATE, ['true', 'false'], 'false') === 'true',
    webhookTimeoutMs: milliseconds('BILLING_WEBHOOK_TIMEOUT_MS', env.BILLING_WEBHOOK_TIMEOUT_MS, WEBHOOK_TIMEOUT_MS),
    publicUrl: publicUrl(env.BILLING_PUBLIC_URL),
    trustProxy: oneOf('BILLING_TRUST_PROXY', env.BILLING_TRUST_PROXY, ['true', 'false'], 'false') === 'true',
    schedules: readSchedules(env),
    smtpUrl: env.BILLING_SMTP_URL ? checkSmtpUrl(env.BILLING_SMTP_URL) : null,
    mailDir: env.BILLING_MAIL_DIR || './data/mail',
    workerMetricsPort: env.BILLING_WORKER_METRICS_PORT ? listenPort('BILLING_WORKER_METRICS_PORT', env.BILLING_WORKER_METRICS_PORT) : null,
  }
}

/** BILLING_PUBLIC_URL, checked: an absolute http(s) URL, or none. */
function publicUrl(value: string | undefined): string | null {
  if (!value) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`BILLING_PUBLIC_URL must be an absolute http(s) URL (got ${value})`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`BILLING_PUBLIC_URL must be an absolute http(s) URL (got ${value})`)
  return url.href
}

/**
 * A provider's callback secret from `BILLING_PROVIDER_SECRET_<NAME>` (its name upper-cased, other
 * characters as `_`), over the presets file's `callbackSecret` (contract 15.1): secrets stay out of files.
 * A secret that breaks the signing-secret rule stops the start, as the presets file's does.
 */
export function withProviderSecrets(presets: Presets, env: NodeJS.ProcessEnv): Presets {
  const paymentProviders = presets.paymentProviders.map((p) => {
    const name = `BILLING_PROVIDER_SECRET_${p.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`
    const secret = env[name]
    if (secret && !isSigningSecret(secret)) throw new Error(`${name} ${SIGNING_SECRET_RULE}`)
    return secret ? { ...p, callbackSecret: secret } : p
  })
  return { ...presets, paymentProviders }
}

/** `sqlite:<file>`, `sqlite::memory:` or a Postgres URL that parses, with a database name. */
function databaseUrl(url: string): string {
  if (url.startsWith('sqlite:')) {
    if (url.length === 'sqlite:'.length) throw new Error('DATABASE_URL sqlite: needs a file name, or :memory: (sqlite:./data/billing.sqlite)')
    return url
  }
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${url.split(':')[0]}:")`)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    // The URL itself is not repeated: it may hold a password.
    throw new Error('DATABASE_URL is not a valid URL (postgres://user[:password]@host[:port]/database; escape special characters in the password)')
  }
  if (!parsed.hostname) throw new Error('DATABASE_URL names no host (postgres://user[:password]@host[:port]/database)')
  if (parsed.pathname.length <= 1) throw new Error('DATABASE_URL names no database (postgres://user[:password]@host[:port]/database)')
  return url
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${value}")`)
  return value as T
}

export function loadPresetsFile(path: string): Presets {
  let content: unknown
  try {
    content = JSON.parse(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new Error(`BILLING_PRESETS_FILE ${path}: ${(e as Error).message}`)
  }
  return checkStandardFeatures(mergePresets(content))
}

/**
 * The HTTP server's connection limits. The headers timeout defaults to the request timeout (at
 * most a minute), as it did before it had a setting of its own.
 */
function readConnectionLimits(env: NodeJS.ProcessEnv, requestTimeoutMs: number): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS
  return {
    maxConnections: positiveInt('BILLING_MAX_CONNECTIONS', env.BILLING_MAX_CONNECTIONS, d.maxConnections),
    headersTimeoutMs: milliseconds('BILLING_HEADERS_TIMEOUT_MS', env.BILLING_HEADERS_TIMEOUT_MS, Math.min(requestTimeoutMs, d.headersTimeoutMs)),
    bodyTimeoutMs: milliseconds('BILLING_BODY_TIMEOUT_MS', env.BILLING_BODY_TIMEOUT_MS, d.bodyTimeoutMs),
    idleTimeoutMs: milliseconds('BILLING_IDLE_TIMEOUT_MS', env.BILLING_IDLE_TIMEOUT_MS, d.idleTimeoutMs),
    sendTimeoutMs: milliseconds('BILLING_SEND_TIMEOUT_MS', env.BILLING_SEND_TIMEOUT_MS, d.sendTimeoutMs),
  }
}

/** An API key's lookup is kept this long: a revocation from another process takes effect within it. */
export const DEFAULT_KEY_CACHE_MS = 1000
