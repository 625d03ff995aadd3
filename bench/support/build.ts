import { execFile } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { promisify } from 'node:util'
import { log } from './report.js'

/**
 * Where this benchmark process builds the platform (dist/ is left to `npm run build`): one
 * directory per process, so that a run keeps the code it started with while sources change.
 */
export const BUILD_DIR = `node_modules/.cache/bench-dist-${process.pid}`

let built: Promise<boolean> | null = null

/**
 * Compiles the platform with tsc once per benchmark process, so children run plain JavaScript
 * as `npm start` does: under tsx the loader's worker thread alone adds tens of MB of RSS.
 * BENCH_TSX=1 skips the build and runs the sources under tsx. The build's record goes in its own
 * directory: inherited from tsconfig.build.json, it overwrote the checkout's dist/build.tsbuildinfo,
 * and the next incremental build of dist/ (tests/apps/package.test.ts's copy) checked every file
 * again, 28 s against 4.
 */
export function buildOnce(): Promise<boolean> {
  if (process.env.BENCH_TSX === '1') return Promise.resolve(false)
  if (built) return built
  process.once('exit', () => rmSync(BUILD_DIR, { recursive: true, force: true }))
  built = promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'bench/support/tsconfig.bench.json', '--outDir', BUILD_DIR, '--tsBuildInfoFile', `${BUILD_DIR}/bench.tsbuildinfo`], { maxBuffer: 1 << 24 })
    .then(() => true)
    .catch((e: { stdout?: string }) => {
      log(`WARNING: the build failed, children run under tsx instead:\n${String(e.stdout ?? e).slice(0, 2000)}`)
      return false
    })
  return built
}

/** The command for a child: the compiled file when the build worked, else the source under tsx. */
export async function childCommand(source: string): Promise<string[]> {
  const js = `${BUILD_DIR}/${source.replace(/\.ts$/, '.js')}`
  return (await buildOnce()) && existsSync(js) ? [js] : ['--import', 'tsx', source]
}
