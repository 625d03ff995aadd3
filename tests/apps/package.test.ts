import { execFile, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { installOffline, npm, provideSqliteAddon } from '../support/npm-install.js'
import { testedBlocks } from '../support/readme-examples.js'
import { typeCheck, type TypeCheck } from '../support/type-check.js'
import { fixture, fixtureTests } from '../support/type-fixtures.js'

/**
 * The package as users get it, built once. Contract 13: on a clone, `npm ci --omit=dev`, then
 * `npm start`, `npm run worker`, `npm run apikey` and `npm run restore` work with no dev
 * dependency installed. The clone is this checkout's files (tracked and new, as git lists them)
 * in a temporary directory; the tarball a consumer installs is packed from that clone's build,
 * so the build (tsc, the longest step) runs once for both. What must and must not compile (the
 * typed calls and queries of tests/types/fixtures, the README's TypeScript examples) is checked
 * against that build's declarations, as a user's code is, in one tsc run that checks only them.
 */
const run = promisify(execFile)
const root = resolve('.')

/** Where the file's time goes (printed once at its end): the longest of the suite's files. */
const steps: string[] = []
async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now()
  try {
    return await work()
  } finally {
    steps.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`)
  }
}
// Known before the build, so that the type fixtures' paths in it are known when their tests are registered.
const scratch = join(tmpdir(), `billing-prod-${process.pid}`)
const built = join(scratch, 'app', 'dist')
const test = suite<{ dir: string; app: string; files: number; how: string }>('apps: a production install runs the server, the worker and both CLIs; the npm package, installed and imported by name')

/** The consumer: imports the package by name and uses it as the README shows. */
const consumerScript = `
import { createBillingPlatform, errorCodeOf, BillingError } from 'telco-billing'
const billing = await createBillingPlatform({ databaseUrl: 'sqlite::memory:' })
const customer = await billing.customers.create({ accountNumber: 'ACC-1', firstnames: 'Ada', lastname: 'Lovelace' })
const page = await billing.customers.list({ accountNumber: 'ACC-1' })
let refused = null
try {
  await billing.customers.create({ accountNumber: 'ACC-2', shoeSize: 43 })
} catch (error) {
  refused = { isBillingError: error instanceof BillingError, code: error.code, errorCode: errorCodeOf(error) }
}
// An invoice's PDF: the installed package finds its embedded font in assets/fonts.
await billing.features.create({ customerID: customer.id }, { featureType: 'Support', startDate: '2026-01-01', serviceCharge: '45.00', serviceChargeInterval: 'Calendar Monthly' })
await billing.billingRuns.create({ name: 'January', cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })
await billing.billingRuns.runNext()
const [invoice] = (await billing.invoices.listOf(customer.id)).items
const pdf = await billing.invoices.document(invoice.id, { format: 'pdf' })
const pdfStart = Buffer.from(pdf.subarray(0, 5)).toString('latin1')
await billing.close()
console.log(JSON.stringify({ id: customer.id, listed: page.items.map((c) => c.accountNumber), wire: billing.toWire('customers', customer).lastname, refused, pdfStart }))
`

/** The same through the package's types (a TypeScript consumer type-checks against dist/index.d.ts). */
const consumerTypes = `
import { createBillingPlatform, errorCodeOf, type Item, type Page } from 'telco-billing'
const billing = await createBillingPlatform({ databaseUrl: 'sqlite::memory:' })
const customer: Item = await billing.customers.create({ accountNumber: 'ACC-1' })
const { pin }: { pin: string } = await billing.customers.action(customer.id, 'generatePIN')
const page: Page = await billing.customers.list({ limit: 10 })
const code: number = errorCodeOf(new Error('x'))
console.log(pin, page.hasMore, code)
await billing.close()
`

/**
 * Pins every runtime dependency to this project's locked version, so that an offline install
 * finds them in the npm cache (which holds what this project's node_modules came from).
 */
function lockedVersions(): Record<string, string> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; dev?: boolean; link?: boolean }> }
  const out: Record<string, string> = {}
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path || entry.dev || entry.link || !entry.version) continue
    out[path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)] = entry.version
  }
  return out
}

/** `npm run <script>` in its own process group, so that the signal reaches npm's child too. */
function npmRun(cwd: string, script: string, env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let out = ''
  let err = ''
  child.stdout.on('data', (c) => (out += c))
  child.stderr.on('data', (c) => (err += c))
  // 'close', not 'exit': npm may end before the program it ran has written its last line to the shared pipe.
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
  const waitFor = (pattern: RegExp, where: () => string) =>
    new Promise<RegExpExecArray>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`${script}: no ${pattern} in 30 s:\n${out}\n${err}`)), 30_000)
      const check = () => {
        const m = pattern.exec(where())
        if (m) {
          clearTimeout(timer)
          done(m)
        }
      }
      child.stdout.on('data', check)
      child.stderr.on('data', check)
      void exited.then(() => {
        check()
        fail(new Error(`${script} exited:\n${out}\n${err}`))
      })
    })
  // The group gets the signal (npm and the server alike): the server's own "stopped" line, not
  // npm's exit code, says that it shut down cleanly.
  return { child, exited, out: () => out, err: () => err, waitFor, stop: () => process.kill(-child.pid!, 'SIGTERM') }
}

if (process.env.SKIP_PACK_TEST === '1') {
  console.log('\n[package] SKIPPED: SKIP_PACK_TEST=1; the --omit=dev install, the build, the type fixtures, npm pack and the consumer install did not run.\n')
  test.skip('npm ci --omit=dev; npm start, npm run worker, npm run apikey, npm run restore', () => {})
  test.skip('the type fixtures and the README examples against the build', () => {})
  test.skip('npm pack; a consumer installs the tarball and uses the library by name', () => {})
} else {
  test.before(async (ctx) => {
    rmSync(scratch, { recursive: true, force: true })
    mkdirSync(scratch)
    ctx.dir = scratch
    ctx.app = join(ctx.dir, 'app')
    const cloned = performance.now()
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
    for (const file of files) {
      if (!existsSync(join(root, file))) continue // deleted in the work tree
      // A worktree's node_modules may be an untracked symlink to another checkout's: copied,
      // `npm ci` below emptied that checkout's node_modules through it (it did, 2026-11-28).
      if (file === 'node_modules' || file.startsWith('node_modules/')) continue
      mkdirSync(dirname(join(ctx.app, file)), { recursive: true })
      cpSync(join(root, file), join(ctx.app, file))
    }
    ctx.files = files.length
    steps.push(`clone ${((performance.now() - cloned) / 1000).toFixed(1)} s`)
    // npm ci runs `prepare` (the build) after installing; scripts are skipped here only so that
    // the SQLite addon is copied rather than compiled, so the build is run as npm would run it.
    // A type error anywhere fails it, and is shown here.
    ctx.how = await timed('npm ci --omit=dev', () => installOffline(['ci', '--omit=dev'], ctx.app))
    await provideSqliteAddon(root, ctx.app)
    // The build is incremental (tsconfig.build.json): given this checkout's build and its record
    // (which `npm ci` here made), tsc checks and emits again only what changed since, as it would
    // in a clone built before; the same output as a build from nothing, in a sixth of its CPU.
    if (existsSync(join(root, 'dist/build.tsbuildinfo'))) cpSync(join(root, 'dist'), join(ctx.app, 'dist'), { recursive: true })
    await timed('build', () => npm(['run', 'prepare'], ctx.app).catch((e) => assert.unreachable(`the build: ${e.stdout}\n${e.stderr}`)))
  })
  test.after((ctx) => {
    rmSync(ctx.dir, { recursive: true, force: true })
    console.log(`[package] steps: ${steps.join(', ')}`)
  })

  test('npm ci --omit=dev; npm start, npm run worker, npm run apikey, npm run restore', ({ dir, app, files, how }) => timed('server, worker and CLIs', async () => {
    for (const dev of ['tsx', 'uvu', 'fast-check', 'playwright-core', 'pdfjs-dist', 'pngjs']) assert.not.ok(existsSync(join(app, 'node_modules', dev)), `${dev} is not installed`)
    // Invoice PDFs (contract 10.5) need pdfkit and the fonts the clone ships, no dev tool.
    const fonts = execFileSync(process.execPath, ['--input-type=module', '-e', "const m = await import('./dist/adapters/documents/fonts.js'); const f = await m.documentFonts(); console.log(f.regular.postscriptName, f.bold.postscriptName)"], { cwd: app, encoding: 'utf8' })
    assert.is(fonts.trim(), 'DejaVuSans DejaVuSans-Bold')

    const env = { DATABASE_URL: `sqlite:${join(dir, 'prod.sqlite')}`, HOST: '127.0.0.1', PORT: '0', BILLING_SCHEDULER: 'off' }
    const server = npmRun(app, 'start', env)
    const [, base] = await server.waitFor(/Serving (http:\/\/\S+)/, server.out)
    const key = /shown only once:\n(\S+)/.exec(server.out())?.[1]
    assert.ok(key, server.out())
    assert.is((await fetch(`${base}/customers`, { headers: { authorization: `Bearer ${key}` } })).status, 200)
    server.stop()
    await server.waitFor(/"msg":"stopped"/, server.err)

    const worker = npmRun(app, 'worker', env)
    await worker.waitFor(/worker-started/, worker.err)
    worker.stop()
    await worker.waitFor(/"msg":"worker-stopped"/, worker.err)

    // The restore CLI's two calls write nothing: they run beside the key CLI's.
    const restores = Promise.all([
      npm(['run', '--silent', 'restore', '--', '--archive', join(dir, 'none.7z'), '--password-env', 'NO_SUCH_VAR'], app, env).then(
        () => ({ code: 0, stderr: 'a missing archive was accepted' }),
        (e: { code: number; stderr: string }) => e,
      ),
      npm(['run', '--silent', 'restore', '--', '--help'], app, env),
    ])
    const apikey = await npm(['run', '--silent', 'apikey', '--', 'create', '--name', 'ops'], app, env)
    assert.match(apikey.stdout, /^tbk_[\w-]{32}\n$/)
    assert.match((await npm(['run', '--silent', 'apikey', '--', 'list'], app, env)).stdout, /^admin\t.*\nops\t/m)

    const [missing, usage] = await restores
    assert.ok(missing.code !== 0)
    assert.not.match(missing.stderr, /Cannot find (package|module)|ERR_MODULE_NOT_FOUND/)
    assert.match(usage.stderr, /usage:/)
    console.log(`[production-install] ${files} files, installed ${how}`)
  }))

  // The README's examples import the package by name; here its build, by the `.js` name of its index.
  const readme = testedBlocks(readFileSync('README.md', 'utf8'))
    .filter((b) => b.lang === 'ts')
    .map((b, i) => ({ ...b, path: join(built, 'readme', `line-${b.line}-${i}.ts`), text: b.code.replace(/from\s+(['"])telco-billing\1/g, "from '../index.js'") }))
  const misspelt = { path: join(built, 'readme', 'misspelt.ts'), text: "import type { CustomerInput } from '../index.js'\nexport const c: CustomerInput = { lastName: 'x' }" }
  const library = fixture('tests/types/fixtures/library-usage.ts', built)
  const database = fixture('tests/types/fixtures/database-usage.ts', built)
  let typed: Promise<TypeCheck> | undefined
  const checked = () =>
    (typed ??= timed('type fixtures and README examples', () => typeCheck([library, library.unmarked, database, database.unmarked, ...readme, misspelt], join(scratch, 'app'))))

  fixtureTests(test, 'typed library calls', library, checked, 20)
  fixtureTests(test, 'typed queries', database, checked, 10)

  test('the README has a TypeScript example of the library, and it compiles with the typed calls', async () => {
    assert.ok(readme.some((b) => /createBillingPlatform/.test(b.code) && /CustomerInput/.test(b.code)), 'a typed library example')
    const { errors, elsewhere, out } = await checked()
    const inReadme = new Set(readme.map((b) => b.path))
    assert.equal(errors.filter((e) => inReadme.has(e.file)), [], `tsc reports nothing in the examples:\n${out}`)
    assert.equal(elsewhere, [], 'nor in the package they import')
    assert.ok(errors.some((e) => e.file === misspelt.path && e.code === 'TS2561'), 'and reports a misspelt field')
  })

  test('npm pack; a consumer installs the tarball and uses the library by name', async ({ dir, app }) => {
    // The clone is built already: its scripts (the build again) are not run by the pack.
    const { stdout } = await timed('pack', () => npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], app)).catch((e) => {
      throw new Error(`npm pack failed:\n${e.stdout}\n${e.stderr}`)
    })
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
    const paths = packed.files.map((f) => f.path)
    const fonts = ['assets/fonts/DejaVuSans.ttf', 'assets/fonts/DejaVuSans-Bold.ttf', 'assets/fonts/LICENSE-DejaVu.txt']
    for (const wanted of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', ...fonts]) assert.ok(paths.includes(wanted), `${wanted} is packed`)
    const stray = paths.filter((p) => !/^(package\.json|README\.md|docs\/|assets\/fonts\/|dist\/(index\.|core\/|adapters\/|apps\/))/.test(p))
    assert.equal(stray, [], 'only the build, the README, the docs and the fonts are packed')

    const consumer = join(dir, 'consumer')
    mkdirSync(consumer)
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', overrides: lockedVersions() }, null, 2))
    // The clone's production dependencies are the tarball's (one package.json): given beforehand,
    // npm resolves the tarball's against them and installs offline. Without them it asked the
    // registry for every package's metadata, which the cache of an `npm ci` does not hold.
    await timed('copy of node_modules', async () => cpSync(join(app, 'node_modules'), join(consumer, 'node_modules'), { recursive: true, verbatimSymlinks: true }))
    const how = await timed('consumer install', () => installOffline(['install', join(dir, packed.filename)], consumer))
    await provideSqliteAddon(root, consumer)

    writeFileSync(join(consumer, 'consumer.mjs'), consumerScript)
    const out = await timed('consumer script', () => run(process.execPath, ['consumer.mjs'], { cwd: consumer }))
    const result = JSON.parse(out.stdout)
    assert.equal(result, {
      id: '1',
      listed: ['ACC-1'],
      wire: 'Lovelace',
      refused: { isBillingError: true, code: 'invalid_field', errorCode: 400101 },
      pdfStart: '%PDF-',
    })

    writeFileSync(join(consumer, 'consumer.ts'), consumerTypes)
    const tsc = join(root, 'node_modules/typescript/bin/tsc')
    const flags = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022']
    await timed('consumer tsc', () => run(process.execPath, [tsc, ...flags, 'consumer.ts'], { cwd: consumer }).catch((e) => assert.unreachable(`the typings check: ${e.stdout}`)))
    // The CLIs through the package's bin entries, as an installed package offers them.
    const bin = (name: string, ...args: string[]) =>
      run(join(consumer, 'node_modules/.bin', name), args, { cwd: consumer, env: { ...process.env, DATABASE_URL: `sqlite:${join(consumer, 'cli.sqlite')}` } })
    assert.match((await bin('telco-billing-apikey', 'create', '--name', 'ops')).stdout, /^tbk_[\w-]{32}\n$/)
    assert.match((await bin('telco-billing-apikey', 'list')).stdout, /^ops\t/m)
    const usage = await bin('telco-billing-restore', '--help')
    assert.match(usage.stderr, /usage:/)
    console.log(`[package] ${packed.filename}: ${paths.length} files, installed ${how}`)
  })
}

test.run()
