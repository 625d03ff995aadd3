import { readFileSync } from 'node:fs'
import type { BenchDatabase } from './database.js'
import { childCommand } from './build.js'
import { freePort, startChild, waitForUrl, type Child } from './child-process.js'

export const API = '/backend/api/v1'

/** The real server (apps/server/main.ts) in a child process, scheduler and rate limit off. */
export interface ApiServer {
  readonly origin: string
  readonly child: Child
  readonly key: string
  stop(): Promise<void>
}

/**
 * The heap flags of `npm start` (package.json; apps/server/main.ts's shebang passes the same), which
 * the server is measured with: the bench starts node itself, so a shebang alone would not apply.
 */
function serverNodeFlags(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start
  return script.split(/\s+/).filter((word) => /^--(max-semi-space-size|heap-growing-percent)=\d+$/.test(word))
}

export async function startApiServer(db: BenchDatabase): Promise<ApiServer> {
  const port = await freePort()
  const child = startChild([...serverNodeFlags(), ...(await childCommand('apps/server/main.ts'))], {
    DATABASE_URL: db.childUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    BILLING_SCHEDULER: 'off',
    BILLING_RATE_LIMIT: '0',
    // A 5,000,000-row usage file streams in for longer than the 30 s default deadline.
    BILLING_REQUEST_TIMEOUT_MS: '3600000',
    NODE_ENV: 'production',
  })
  const origin = `http://127.0.0.1:${port}`
  await waitForUrl(`${origin}/healthz`, child)
  return {
    origin,
    child,
    key: db.key,
    async stop() {
      await child.stop()
    },
  }
}

/** The bare node:http baseline (bench/support/baseline-server.ts) on the same database. */
export async function startBaselineServer(db: BenchDatabase, framework: 'node' | 'h3' = 'node'): Promise<{ origin: string; child: Child; stop(): Promise<void> }> {
  const port = await freePort()
  const child = startChild(await childCommand('bench/support/baseline-server.ts'), {
    BASELINE_DB: db.kind === 'sqlite' ? db.file! : db.childUrl,
    PORT: String(port),
    BASELINE_FRAMEWORK: framework,
  })
  const origin = `http://127.0.0.1:${port}`
  await waitForUrl(`${origin}/healthz`, child)
  return { origin, child, stop: async () => void (await child.stop()) }
}
