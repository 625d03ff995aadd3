import { spawn } from 'node:child_process'
import { childEntry } from './child-entry.js'

/** `apps/server/main.ts` as a child process on a free port; `ready` is its base URL. */
export function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [...childEntry('apps/server/main.ts')], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', BILLING_SCHEDULER: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c) => (stdout += c))
  child.stderr.on('data', (c) => (stderr += c))
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 20_000)
    child.on('exit', () => {
      clearTimeout(timer)
      reject(new Error(`server exited: ${stderr}`))
    })
    child.stdout.on('data', () => {
      const m = /Serving (http:\/\/[^\s]+)/.exec(stdout)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, ready, exited, out: () => stdout, err: () => stderr }
}
