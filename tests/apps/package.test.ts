import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { installOffline, npm, provideSqliteAddon } from '../support/npm-install.js'

const run = promisify(execFile)
const root = resolve('.')
const test = suite('apps: the npm package, installed and imported by name')

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

if (process.env.SKIP_PACK_TEST === '1') {
  console.log('\n[package] SKIPPED: SKIP_PACK_TEST=1; npm pack and the consumer install did not run.\n')
  test.skip('npm pack; a consumer installs the tarball and uses the library by name', () => {})
} else {
  test('npm pack; a consumer installs the tarball and uses the library by name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-pack-'))
    try {
      // prepack builds dist/ with tsc: a type error anywhere fails the pack, and is shown here.
      const { stdout } = await npm(['pack', '--json', '--pack-destination', dir], root).catch((e) => {
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
      const how = await installOffline(['install', join(dir, packed.filename)], consumer)
      await provideSqliteAddon(root, consumer)

      writeFileSync(join(consumer, 'consumer.mjs'), consumerScript)
      const out = await run(process.execPath, ['consumer.mjs'], { cwd: consumer })
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
      await run(process.execPath, [tsc, ...flags, 'consumer.ts'], { cwd: consumer }).catch((e) => assert.unreachable(`the typings check: ${e.stdout}`))
      // The CLIs through the package's bin entries, as an installed package offers them.
      const bin = (name: string, ...args: string[]) =>
        run(join(consumer, 'node_modules/.bin', name), args, { cwd: consumer, env: { ...process.env, DATABASE_URL: `sqlite:${join(consumer, 'cli.sqlite')}` } })
      assert.match((await bin('telco-billing-apikey', 'create', '--name', 'ops')).stdout, /^tbk_[\w-]{32}\n$/)
      assert.match((await bin('telco-billing-apikey', 'list')).stdout, /^ops\t/m)
      const usage = await bin('telco-billing-restore', '--help')
      assert.match(usage.stderr, /usage:/)
      console.log(`[package] ${packed.filename}: ${paths.length} files, installed ${how}`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}

test.run()
