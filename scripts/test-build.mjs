// The programs the suites start as child processes (workers, servers, CLIs, the README's
// examples) as JavaScript, instead of tsx transforming and loading the graph again in every child
// (about 3 s of CPU each; the suites start a few hundred). Type checking is not this build's job:
// `npm run typecheck` and tests/apps/package.test.ts do it.
import { build } from 'esbuild'
import { readdirSync, readFileSync } from 'node:fs'

/** The programs the suites start as processes, each bundled (`bundleOf`); `index.ts` is what the README's examples import. */
const childSources = () => [
  'index.ts',
  'apps/server/main.ts',
  'apps/worker/main.ts',
  'apps/cli/apikey.ts',
  'apps/cli/restore.ts',
  ...readdirSync('tests/support').filter((f) => f.endsWith('-child.ts')).map((f) => `tests/support/${f}`),
]

/**
 * Where a child's bundle is, under the build's folder and without its `.js`: one flat folder,
 * beside the SQLite thread's program. tests/support/child-entry.ts names them alike.
 */
const bundleOf = (source) => `bundled/${source.replace(/\.ts$/, '').replaceAll('/', '--')}`

/**
 * The packages inlined in the bundles: ESM graphs of many small files (kysely about 260,
 * inversify's 240, date-fns 80), which is where a child's start went, and none reads a file
 * beside its own. The others stay imports: they read files by their own paths (pdfkit's fonts,
 * pino's transports, 7zip-bin's binary, better-sqlite3's addon) or are a few files each.
 */
const inlined = ['kysely', 'inversify', 'date-fns', 'h3', 'srvx', 'csv-parse', 'valibot', 'croner', 'eta', 'negotiator']

/**
 * Each child program as one bundle (`bundleOf`) in `outdir`. A child loading its bundle
 * spends about 0.5 s of CPU against 1.3 s for the same graph as 1,300 modules transformed one
 * by one, most of which was Node resolving, opening and reading files. The bundles are written
 * flat, with the SQLite worker thread's program beside them, where the driver inlined in each
 * looks for it (`./thread-worker.js`, next to its own module).
 */
export async function buildForChildren(outdir) {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
  const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter((d) => !inlined.includes(d))
  const bundles = [
    ...childSources().map((source) => ({ in: source, out: bundleOf(source) })),
    { in: 'adapters/persistence/sqlite-thread/thread-worker.ts', out: 'bundled/thread-worker' },
  ]
  await build({ entryPoints: bundles, outdir, bundle: true, external, format: 'esm', platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' })
}
