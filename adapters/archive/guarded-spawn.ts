import { spawn, type ChildProcess, type StdioNull, type StdioPipe } from 'node:child_process'

/**
 * The guard: a few lines of Node between us and the program. It runs the program in a
 * session of its own (no controlling terminal: 7za's getpass() then reads the password from
 * stdin), passes stdin on, and holds file descriptor 3, a pipe whose other end only the parent
 * has. When the parent dies, however it dies (SIGKILL included), the kernel closes that end:
 * the guard reads end-of-file, kills the program's process group and removes the directory it
 * was given (the plain table copies), then exits. Node cannot ask Linux to kill a child with
 * its parent (prctl PR_SET_PDEATHSIG); a pipe's end-of-file is the portable signal, and a
 * parent that is alive never closes it, so it cannot fire early. Plain JavaScript run with
 * `node -e`, so it works the same from the sources (tsx) and from dist/.
 */
const GUARD = `
const { spawn } = require('node:child_process')
const { rmSync } = require('node:fs')
const { Socket } = require('node:net')
const [cleanup, program, ...args] = process.argv.slice(1)
const child = spawn(program, args, { stdio: ['pipe', 'inherit', 'inherit'], detached: true })
child.stdin.on('error', () => {})
process.stdin.pipe(child.stdin)
let gone = false
const parentGone = () => {
  if (gone) return
  gone = true
  try { process.kill(-child.pid, 'SIGKILL') } catch {}
  if (cleanup) try { rmSync(cleanup, { recursive: true, force: true }) } catch {}
  process.exit(137)
}
const lifeline = new Socket({ fd: 3, readable: true, writable: false })
lifeline.on('end', parentGone).on('close', parentGone).on('error', parentGone).resume()
child.on('error', (e) => { process.stderr.write(e.message + '\\n'); process.exit(127) })
child.on('exit', (code) => process.exit(code === null ? 1 : code))
`

export interface GuardedSpawnOptions {
  readonly cwd?: string
  readonly env?: NodeJS.ProcessEnv
  /** Whether the program's stdout is read (otherwise discarded). */
  readonly stdout?: boolean
  /** A directory removed if this process dies while the program runs (its plain input). */
  readonly cleanup?: string
}

/**
 * Runs `program` so that it dies with this process: through the guard above. stdin and
 * stderr are pipes (stdout too when asked); the exit code is the program's.
 */
export function guardedSpawn(program: string, args: readonly string[], options: GuardedSpawnOptions = {}): ChildProcess {
  const stdout: StdioPipe | StdioNull = options.stdout ? 'pipe' : 'ignore'
  return spawn(process.execPath, ['-e', GUARD, '--', options.cleanup ?? '', program, ...args], {
    cwd: options.cwd,
    env: options.env,
    // fd 3 is the lifeline: never written, never closed here; it closes when this process ends.
    stdio: ['pipe', stdout, 'pipe', 'pipe'],
  })
}
