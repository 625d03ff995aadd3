import { spawn, type ChildProcess } from 'node:child_process'
import { openSync, closeSync, readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** A long-running child (the server under test, a baseline, a worker); its output goes to a log file. */
export interface Child {
  readonly process: ChildProcess
  readonly pid: number
  readonly logFile: string
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<number | null>
  log(): string
}

/** Child logs are kept only while this process runs (they are shown when a child fails). */
const logDirs = new Set<string>()
process.once('exit', () => {
  for (const dir of logDirs) rmSync(dir, { recursive: true, force: true })
})

/** Node flags for children, e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
export const extraNodeArgs = (): string[] => (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)

/** Starts `node <command>` (see build.ts: the compiled script, or the source under tsx) with the given environment added. */
export function startChild(command: string[], env: Record<string, string>, args: string[] = []): Child {
  const dir = mkdtempSync(join(tmpdir(), 'bench-child-'))
  const logFile = join(dir, 'output.log')
  const fd = openSync(logFile, 'w')
  const child = spawn(process.execPath, [...extraNodeArgs(), ...command, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, fd],
  })
  closeSync(fd)
  logDirs.add(dir)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    process: child,
    pid: child.pid!,
    logFile,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      const code = await exited
      clearTimeout(timer)
      return code
    },
    log: () => readFileSync(logFile, 'utf8'),
  }
}

/** Polls a URL until it answers 200 (or the child exits, or 60 s pass). */
export async function waitForUrl(url: string, child: Child): Promise<void> {
  const deadline = Date.now() + 60_000
  let exited = false
  void child.exited.then(() => (exited = true))
  while (Date.now() < deadline) {
    if (exited) throw new Error(`child exited before ${url} answered:\n${child.log().slice(-2000)}`)
    try {
      const res = await fetch(url)
      await res.arrayBuffer()
      if (res.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${url} did not answer within 60 s:\n${child.log().slice(-2000)}`)
}
