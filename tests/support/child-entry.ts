import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Node's arguments that run a TypeScript entry point (`apps/worker/main.ts`) in a child process:
 * its bundle from the build `npm test` makes once per run (TEST_BUILD_DIR, see
 * scripts/test-build.mjs), else the source under tsx. Loading the bundle costs about a sixth
 * of the CPU of tsx loading the graph (0.5 s against 3 s for apps/platform), paid by every child.
 */
export function childEntry(source: string): string[] {
  const dir = process.env.TEST_BUILD_DIR
  if (!dir) return ['--import', 'tsx', source]
  // The same name as scripts/test-build.mjs's `bundleOf`: a bundle that build did not make is a
  // mistake in one of the two, said here rather than hidden by a slower start under tsx.
  const js = join(dir, 'bundled', `${source.replace(/\.ts$/, '').replaceAll('/', '--')}.js`)
  if (!existsSync(js)) throw new Error(`${js} is missing: scripts/test-build.mjs bundles the programs tests start; add ${source} there`)
  return ['--enable-source-maps', js]
}
