import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from 'h3/node'
import { quickPasswordHasher } from './quick-password-hasher.js'
import { FixedClock } from '../../adapters/persistence/system-clock.js'
import { createApiKey } from '../../core/access/api-keys.js'
import type { Presets } from '../../core/presets/presets.js'
import { openPlatform, type Platform, type PlatformConfig } from '../../apps/platform/platform.js'
import { openMigratedTarget } from './migrated-template.js'
import type { Target, TargetName } from './targets.js'

export interface ApiResponse<T = any> {
  readonly status: number
  readonly headers: Headers
  readonly body: T
  readonly text: string
}

export interface RequestOptions {
  readonly key?: string | null
  readonly headers?: Record<string, string>
  /** A raw body sent as is (with the given content type header). */
  readonly raw?: string | Uint8Array
}

/** A platform on a fresh database with keys of each kind, and a client for its HTTP API. */
export interface Harness {
  readonly target: Target
  readonly platform: Platform
  readonly clock: FixedClock
  readonly keys: { admin: string; low: string; revoked: string }
  /** SQL statements run since the harness opened (reset it to count a request's queries). */
  readonly queries: string[]
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>
  /** Same API over a real listening socket. */
  listen(): Promise<string>
  close(): Promise<void>
}

export const BASE = '/backend/api/v1'
/** Paths served outside the API's base path (probes and metrics). */
const ROOT_PATHS = /^\/(healthz|readyz|metrics)(\/|\?|$)/

export async function openHarness(
  name: TargetName,
  options: {
    presets?: Presets
    now?: string
    transport?: 'in-process' | 'socket'
    /** Further platform settings (disaster-recovery directory and password, ...). */
    config?: Partial<PlatformConfig>
  } = {},
): Promise<Harness> {
  // Already migrated where that is cheaper than migrating (migrated-template.ts).
  const target = await openMigratedTarget(name)
  const clock = new FixedClock((options.now ?? '2026-01-15T10:00:00.000Z') as never)
  const queries: string[] = []
  // Invoice emails without a mailer of the test's own go to .eml files of the harness's own.
  const mailDir = options.config?.mailer || options.config?.mailDir ? null : mkdtempSync(join(tmpdir(), 'billing-harness-mail-'))
  const platform = await openPlatform({
    ...(mailDir ? { mailDir } : {}),
    passwordHasher: quickPasswordHasher,
    ...options.config,
    databaseUrl: target.databaseUrl,
    schema: target.schema,
    skipMigrations: target.migrated === true,
    sqliteImage: target.sqliteImage,
    clock,
    presets: options.presets,
    onQuery: (q) => {
      if (queries.length < 10_000) queries.push(q)
    },
  }).catch((error: unknown) => {
    // Harnesses open in before hooks, and uvu drops what a hook throws: say it here.
    console.error(`[harness] ${name} did not open: ${(error as Error)?.stack ?? error}`)
    throw error
  })
  const make = async (keyName: string, expertLevel: number, permissions: string[] = []) =>
    (await createApiKey(platform.context.store.apiKeys, platform.secrets, clock, { name: keyName, expertLevel, permissions })).secret
  const keys = {
    admin: await make('test-admin', 5, ['dataProtectionDownload']),
    low: await make('test-low', 1),
    revoked: await make('test-revoked', 5),
  }
  await platform.context.store.apiKeys.revoke('test-revoked', clock.now())
  let server: Server | null = null
  let baseUrl: string | null = options.transport === 'socket' ? null : null

  const harness: Harness = {
    target,
    platform,
    clock,
    keys,
    queries,
    async request(method, path, body, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) }
      const key = o.key === undefined ? keys.admin : o.key
      if (key !== null) headers.authorization = `Bearer ${key}`
      let payload: string | Uint8Array | undefined = o.raw
      if (payload === undefined && body !== undefined) {
        payload = JSON.stringify(body)
        headers['content-type'] ??= 'application/json'
      }
      const url = path.startsWith('/') && !path.startsWith(BASE) && !ROOT_PATHS.test(path) ? `${BASE}${path}` : path
      const init = { method, headers, body: payload as BodyInit | undefined }
      const res = baseUrl ? await fetch(`${baseUrl}${url}`, init) : await platform.app.request(url, init)
      const text = await res.text()
      let parsed: unknown = undefined
      try {
        parsed = text ? JSON.parse(text) : undefined
      } catch {
        parsed = undefined
      }
      return { status: res.status, headers: res.headers, body: parsed as never, text }
    },
    async listen() {
      if (baseUrl) return baseUrl
      server = createServer(toNodeHandler(platform.app))
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      return baseUrl
    },
    async close() {
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
      await platform.close()
      await target.dispose()
      if (mailDir) rmSync(mailDir, { recursive: true, force: true })
    },
  }
  if (options.transport === 'socket') await harness.listen()
  return harness
}
