import { spawn, type ChildProcess } from 'node:child_process'
import type { Target } from './targets.js'
import { childEntry } from './child-entry.js'

/** DATABASE_URL for a child process: the Postgres schema rides in the URL's search_path. */
export function childDatabaseUrl(target: Target): string {
  const url = target.databaseUrl
  if (!target.schema) return url
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${target.schema}`)}`
}

export interface PlatformProcess {
  readonly process: ChildProcess
  readonly exited: Promise<number | null>
  /** What it wrote on stderr so far (its log lines at LOG_LEVEL). */
  readonly stderr: () => string
}

/**
 * `apps/worker/main.ts` (`npm run worker`) as a child process on the target's database, with
 * `env` over the test's environment.
 */
export function startWorkerProcess(target: Target, env: Record<string, string>, options: { readonly wholeLog?: boolean } = {}): PlatformProcess {
  const child = spawn(process.execPath, [...childEntry('apps/worker/main.ts')], {
    env: { ...process.env, DATABASE_URL: childDatabaseUrl(target), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  // The last 20 KB by default; a test that counts log lines across the run keeps all of it.
  child.stderr!.on('data', (c) => (stderr = options.wholeLog ? stderr + c : (stderr + c).slice(-20_000)))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { process: child, exited, stderr: () => stderr }
}

/** Waits until `done()` holds; past `ms` the test fails naming what it waited for. */
export async function until(what: string, done: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
