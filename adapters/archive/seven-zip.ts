import { accessSync, chmodSync, constants } from 'node:fs'
import { path7za } from '7zip-bin'
import { guardedSpawn } from './guarded-spawn.js'

/**
 * The 7za binary that the `7zip-bin` package ships (p7zip 16.02), run as a child process.
 *
 * The password never appears on a command line (where `ps` would show it): 7za is given `-p`
 * with no value when packing, or no `-p` at all when reading, so it asks for the password and
 * reads it from its standard input. 7za reads the answer with getpass(), which prefers the
 * controlling terminal, so the child runs in a new session without one.
 *
 * 7za runs through a guard (guarded-spawn.ts) that kills it when this process dies: a killed
 * worker no longer leaves 7za packing the plain table copies for as long as they take.
 */

let checked = false

/** npm does not keep the binary's execute bit everywhere; restore it once. */
function binary(): string {
  if (!checked) {
    try {
      accessSync(path7za, constants.X_OK)
    } catch {
      chmodSync(path7za, 0o755)
    }
    checked = true
  }
  return path7za
}

export interface SevenZipRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const KEEP = 64 * 1024

/**
 * Runs 7za; `input` (the password lines) is written to its stdin, which is otherwise empty.
 * `cleanup` is a directory to remove should this process die while 7za runs.
 */
export function run7za(args: readonly string[], options: { input?: string; cwd?: string; stdout?: boolean; cleanup?: string } = {}): Promise<SevenZipRun> {
  return new Promise((resolve, reject) => {
    const child = guardedSpawn(binary(), args, {
      cwd: options.cwd,
      stdout: options.stdout,
      cleanup: options.cleanup,
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout = (stdout + d).slice(-KEEP)))
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-KEEP)))
    child.stdin!.on('error', () => {}) // 7za may exit before reading
    child.stdin!.end(options.input ?? '')
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
  })
}

/** A password 7za can read as one line; archives without one are never written. */
export function assertUsablePassword(password: string): void {
  if (!password) throw new Error('the archive password is empty')
  if (/[\r\n\0]/.test(password)) throw new Error('the archive password must be one line (no CR, LF or NUL)')
}

const failure = (what: string, run: SevenZipRun) =>
  new Error(`7za ${what} failed (exit ${run.code}): ${run.stderr.trim().split('\n').slice(-3).join(' ') || 'no message'}`)

/** The arguments of a pack: AES-256 with header encryption; the password comes on stdin. */
export const packArgs = (archive: string, files: readonly string[]): string[] => [
  'a', '-t7z', '-mhe=on', '-p', '-y', '-bd', '-bso0', '-bsp0', archive, '--', ...files,
]

/** Packs `files` (names relative to `cwd`) into a new encrypted 7z archive; `cwd` goes should this process die meanwhile. */
export async function packEncrypted(archive: string, cwd: string, files: readonly string[], password: string): Promise<void> {
  assertUsablePassword(password)
  const run = await run7za(packArgs(archive, files), { cwd, input: `${password}\n${password}\n`, cleanup: cwd })
  if (run.code !== 0) throw failure('pack', run)
}

/** Extracts every file of an archive into `dir`; a wrong password fails. */
export async function extractArchive(archive: string, dir: string, password: string): Promise<void> {
  assertUsablePassword(password)
  const run = await run7za(['x', '-y', '-bd', '-bso0', '-bsp0', `-o${dir}`, '--', archive], { input: `${password}\n` })
  if (run.code !== 0) throw failure('extract', run)
}

/** The names of the files in an archive; without the password a header-encrypted one fails. */
export async function listArchive(archive: string, password: string | null): Promise<string[]> {
  const run = await run7za(['l', '-slt', '-ba', '--', archive], { input: password === null ? '' : `${password}\n`, stdout: true })
  if (run.code !== 0) throw failure('list', run)
  return run.stdout
    .split('\n')
    .map((l) => l.replace(/^Enter password[^:]*:/, '')) // the prompt shares the first entry's line
    .filter((l) => l.startsWith('Path = '))
    .map((l) => l.slice('Path = '.length).trim())
}
