// The tree as JavaScript for the child processes the suites start (workers, servers, CLIs): one
// esbuild transform of every source file, about a second, instead of tsx transforming and loading
// the graph again in every child (about 3 s of CPU each; the suites start a few hundred).
// Type checking is not this build's job: `npm run typecheck` and tests/apps/package.test.ts do it.
import { build } from 'esbuild'
import { readdirSync } from 'node:fs'

const tree = (dir) => readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => `${dir}/${f}`)

/** Transforms index.ts, core, adapters, apps and the tests' child entry points into `outdir`, keeping the layout. */
export async function buildForChildren(outdir) {
  const children = readdirSync('tests/support').filter((f) => f.endsWith('-child.ts')).map((f) => `tests/support/${f}`)
  const entryPoints = ['index.ts', ...['core', 'adapters', 'apps'].flatMap(tree), ...children]
  await build({ entryPoints, outdir, outbase: '.', format: 'esm', platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' })
}
