import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Node's arguments that run a TypeScript entry point (`apps/worker/main.ts`) in a child process:
 * its JavaScript from the build `npm test` makes once per run (TEST_BUILD_DIR, see
 * scripts/test-build.mjs), else the source under tsx. Loading the built graph costs about a third
 * of the CPU of tsx loading it (0.9 s against 3 s for apps/platform), paid by every child.
 */
export function childEntry(source: string): string[] {
  const dir = process.env.TEST_BUILD_DIR
  const js = dir ? join(dir, source.replace(/\.ts$/, '.js')) : null
  return js && existsSync(js) ? ['--enable-source-maps', js] : ['--import', 'tsx', source]
}
