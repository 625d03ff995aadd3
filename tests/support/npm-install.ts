import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** npm, quiet, in `cwd`; output kept for the error when it fails. */
export const npm = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  run('npm', ['--loglevel=error', ...args], { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false', ...env } })

/**
 * Runs an install offline when the npm cache has everything (it holds what this project's
 * node_modules came from), otherwise from the registry. Scripts are skipped: the SQLite addon
 * is provided by `provideSqliteAddon` instead of being built again.
 */
export async function installOffline(args: string[], cwd: string): Promise<'offline' | 'online'> {
  const all = [...args, '--no-audit', '--no-fund', '--ignore-scripts']
  try {
    await npm([...all, '--offline'], cwd)
    return 'offline'
  } catch (error) {
    const why = String((error as { stderr?: string }).stderr ?? '').trim().split('\n').slice(-3).join(' / ')
    console.log(`[install] offline install failed (${(error as Error).message.split('\n')[0]}: ${why}); installing from the registry`)
    await npm(all, cwd)
    return 'online'
  }
}

/**
 * Scripts were skipped at install (no compiler for the addon): the SQLite addon of the same
 * version is copied from the project at `root`, or built when the versions differ.
 */
export async function provideSqliteAddon(root: string, target: string): Promise<void> {
  const version = (dir: string) => JSON.parse(readFileSync(join(dir, 'node_modules/better-sqlite3/package.json'), 'utf8')).version
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'
  if (version(root) === version(target) && existsSync(join(root, addon))) {
    mkdirSync(join(target, 'node_modules/better-sqlite3/build/Release'), { recursive: true })
    copyFileSync(join(root, addon), join(target, addon))
  } else {
    await npm(['rebuild', 'better-sqlite3', '--ignore-scripts=false'], target)
  }
}
