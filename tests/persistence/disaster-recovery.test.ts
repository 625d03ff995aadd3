import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { FileArchiver } from '../../adapters/archive/file-archiver.js'
import { extractArchive, listArchive, packArgs } from '../../adapters/archive/seven-zip.js'
import { findMissingArchives, getArchive } from '../../core/disaster-recovery/archive-files.js'
import { ArchivesDisabled, ensureFreshArchive, expireArchives, generateArchive } from '../../core/disaster-recovery/archive-jobs.js'
import { isBillingError } from '../../core/errors.js'
import { ID_COUNTER_COLUMNS, ID_COUNTERS } from '../../adapters/persistence/snapshot/id-counters.js'
import { awkwardNames, readArchive, readTable, seedAwkwardRows } from '../support/archives.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const PASSWORD = 'correct horse, "battery" staple'
const START = '2026-01-15T10:00:00.000Z'
const migrationTables = [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]

interface Ctx {
  h: Harness
  dir: string
}

const archivePath = (ctx: Ctx, filename: unknown) => join(ctx.dir, filename as string)

for (const target of activeTargets()) {
  const test = suite<Ctx>(`disaster recovery archives [${target}]`)
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'dr-archives-'))
    ctx.h = await openHarness(target, { now: START, config: { drDir: ctx.dir, drPassword: PASSWORD } })
    await seedAwkwardRows(ctx.h)
  })
  test.after(async (ctx) => {
    await ctx.h.close()
    rmSync(ctx.dir, { recursive: true, force: true })
  })

  test('an archive holds every table of the database as CSV, row for row as stored', async (ctx) => {
    const { h } = ctx
    const item = await generateArchive(h.platform.context)
    assert.equal(item.status, ['Complete', 'Encrypted'])
    assert.is(item.generatedDate, '2026-01-15')
    assert.is(item.expiresDate, '2026-01-22')
    assert.match(item.filename as string, /^billing-dr-20260115T100000Z-[0-9a-f]{8}\.7z$/)
    assert.is(item.size, readFileSync(archivePath(ctx, item.filename)).length)
    const archived = await readArchive(archivePath(ctx, item.filename), PASSWORD)
    const { database } = h.platform
    const tables = await database.dialect.listTables(database.db)
    for (const t of ['customers', 'numbers', 'api_keys', 'disaster_recovery_files', ...migrationTables]) assert.ok(tables.includes(t), t)
    assert.equal([...archived.keys()], [...tables, ID_COUNTERS].sort())
    assert.equal(archived.get(ID_COUNTERS)!.columns, ID_COUNTER_COLUMNS)
    for (const table of tables) {
      const stored = await readTable(database, table)
      // The archive's own row is written after its snapshot.
      const rows = table === 'disaster_recovery_files' ? stored.rows.filter((r) => r[0] !== item.id) : stored.rows
      assert.equal(archived.get(table), { columns: stored.columns, rows }, table)
    }
    const customers = archived.get('customers')!
    const col = (name: string) => customers.columns.indexOf(name)
    assert.equal(customers.rows.map((r) => r[col('companyName')]), awkwardNames)
    assert.equal(customers.rows.map((r) => r[col('email')]), [null, '', null, '', null, ''], 'NULL and the empty string stay apart')
    assert.equal(archived.get('numbers')!.rows.length, 6)
  })

  test('a table the database gains is archived too; small batches page through every row, with or without a key', async (ctx) => {
    const { database } = ctx.h.platform
    await sql`create table zz_extra (label text, n integer)`.execute(database.db)
    try {
      const rows: [string | null, number | null][] = [['b', 1], ['a', 2], ['b', 1], [null, 3], ['', null]]
      for (const [label, n] of rows) await sql`insert into zz_extra (label, n) values (${label}, ${n})`.execute(database.db)
      const archiver = new FileArchiver(database, { dir: ctx.dir, password: PASSWORD, batchSize: 2 })
      await archiver.write('paged.7z')
      const archived = await readArchive(join(ctx.dir, 'paged.7z'), PASSWORD)
      const extra = archived.get('zz_extra')!
      assert.equal(extra.columns, ['label', 'n'])
      const text = (r: readonly (string | null)[]) => JSON.stringify(r)
      assert.equal(extra.rows.map(text).sort(), rows.map((r) => r.map((v) => (v === null ? null : String(v)))).map(text).sort())
      for (const table of ['customers', 'numbers', 'api_keys']) assert.equal(archived.get(table), await readTable(database, table), table)
    } finally {
      await sql`drop table zz_extra`.execute(database.db)
      rmSync(join(ctx.dir, 'paged.7z'), { force: true })
    }
  })

  test('without the password the archive opens to nothing, not even its file names', async (ctx) => {
    const item = await generateArchive(ctx.h.platform.context)
    const path = archivePath(ctx, item.filename)
    assert.ok((await listArchive(path, PASSWORD)).includes('customers.csv'))
    for (const password of [null, 'wrong password', PASSWORD.toUpperCase()]) {
      try {
        await listArchive(path, password)
        assert.unreachable(`listing with ${password} succeeded`)
      } catch (e) {
        assert.match((e as Error).message, /7za list failed/)
      }
    }
    const out = mkdtempSync(join(tmpdir(), 'dr-wrong-'))
    try {
      await extractArchive(path, out, 'wrong password').then(
        () => assert.unreachable('extracted with a wrong password'),
        (e: Error) => assert.match(e.message, /7za extract failed/),
      )
      assert.equal(readdirSync(out), [])
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
    const bytes = readFileSync(path)
    assert.equal([...bytes.subarray(0, 6)], [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])
    for (const plain of ['customers.csv', 'Comma, Ltd', 'accountNumber', PASSWORD]) assert.is(bytes.indexOf(plain), -1, plain)
    assert.not.ok(packArgs('a.7z', ['t.csv']).some((a) => a.includes(PASSWORD)), 'the password is not an argument')
    assert.equal(readdirSync(ctx.dir).filter((n) => n.startsWith('.')), [], 'no work files or partial archives remain')
  })

  test('expiry: available until the day before expiresDate, then deleted, unlisted and 404102', async (ctx) => {
    const { h } = ctx
    const context = h.platform.context
    const item = await generateArchive(context)
    const path = archivePath(ctx, item.filename)
    try {
      h.clock.set('2026-01-21T23:59:59.000Z')
      assert.is(await expireArchives(context), 0)
      assert.is((await getArchive(context, item.id)).id, item.id)
      h.clock.set('2026-01-22T00:00:00.000Z')
      await getArchive(context, item.id).then(
        () => assert.unreachable('an archive on its expiry date is served'),
        (e) => assert.ok(isBillingError(e) && e.code === 'dr_file_not_found'),
      )
      assert.ok(existsSync(path))
      assert.ok((await expireArchives(context)) >= 1)
      assert.not.ok(existsSync(path), 'the file is deleted')
      const row = (await context.store.repository('disasterRecoveryFiles').get(item.id))!
      assert.equal(row.status, ['Expired'])
      assert.ok(row.removedStamp)
      assert.is(await expireArchives(context), 0, 'a second run finds nothing')
      const list = await h.request('GET', '/disasterRecoveryFiles')
      assert.equal(list.body, [])
    } finally {
      h.clock.set(START)
    }
  })

  test('ensureFreshArchive writes one at once when none is available, and none otherwise', async (ctx) => {
    const { h } = ctx
    const context = h.platform.context
    try {
      h.clock.set('2026-03-01T08:00:00.000Z')
      const fresh = await ensureFreshArchive(context)
      assert.ok(fresh, 'nothing was available: one is written')
      assert.is(fresh!.generatedDate, '2026-03-01')
      assert.is(await ensureFreshArchive(context), null, 'one is available: nothing is written')
      h.clock.set('2026-03-08T08:00:00.000Z')
      const next = await ensureFreshArchive(context)
      assert.ok(next && next.id !== fresh!.id)
      assert.not.ok(existsSync(archivePath(ctx, fresh!.filename)), 'the expired one went')
    } finally {
      h.clock.set(START)
    }
  })

  test('ensureFreshArchive counts no archive whose file is lost: marked Missing at start-up, or found gone by the check itself', async (ctx) => {
    const { h } = ctx
    const context = h.platform.context
    const repo = context.store.repository('disasterRecoveryFiles')
    try {
      h.clock.set('2026-04-01T08:00:00.000Z')
      const first = (await ensureFreshArchive(context))!
      // A server's start marks it Missing (findMissingArchives) before its scheduler starts.
      rmSync(archivePath(ctx, first.filename))
      assert.equal((await findMissingArchives(context)).map((m) => m.id), [first.id])
      const second = await ensureFreshArchive(context)
      assert.ok(second && second.id !== first.id, 'a Missing archive is not available: a fresh one is written at once')
      assert.ok(existsSync(archivePath(ctx, second!.filename)))
      // A worker's start marks nothing first: the check looks for the file itself.
      rmSync(archivePath(ctx, second!.filename))
      const third = await ensureFreshArchive(context)
      assert.ok(third && third.id !== second!.id, 'an archive whose file is gone is not available')
      assert.ok((await repo.get(second!.id))!.status!.includes('Missing'), 'and it is marked Missing')
      assert.is(await ensureFreshArchive(context), null, 'one whose file is there is available: nothing more is written')
    } finally {
      h.clock.set(START)
    }
  })

  test('without a password nothing is written and the refusal says why', async (ctx) => {
    const { h } = ctx
    const dir = mkdtempSync(join(tmpdir(), 'dr-nopw-'))
    try {
      const context = { ...h.platform.context, disasterRecovery: { archiver: new FileArchiver(h.platform.database, { dir, password: null }), retentionDays: 7 } }
      for (const run of [generateArchive, ensureFreshArchive]) {
        await run(context).then(
          () => assert.unreachable('an archive was written without a password'),
          (e: Error) => {
            assert.instance(e, ArchivesDisabled)
            assert.match(e.message, /BILLING_DR_PASSWORD/)
          },
        )
      }
      assert.equal(readdirSync(dir), [])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the snapshot is consistent: pairs committed during the export are entirely in or entirely out', async (ctx) => {
    const { h } = ctx
    const store = h.platform.context.store
    const pair = (i: number) =>
      store.transaction(async (s) => {
        const c = await s.repository('customers').insert({ accountNumber: `PAIR-${i}` })
        await s.repository('numbers').insert({ customerID: c.id, number: `PAIR-${i}` })
      })
    for (let i = 0; i < 200; i++) await pair(i)
    const archiver = new FileArchiver(h.platform.database, { dir: ctx.dir, password: PASSWORD, batchSize: 7 })
    let done = false
    const writing = archiver.write('consistency.7z').finally(() => (done = true))
    let during = 0
    for (let i = 200; !done; i++, during++) {
      await pair(i)
      await new Promise((resolve) => setImmediate(resolve)) // SQLite answers synchronously: let 7za's exit through
    }
    await writing
    const archived = await readArchive(join(ctx.dir, 'consistency.7z'), PASSWORD)
    const customers = archived.get('customers')!
    const numbers = archived.get('numbers')!
    const at = (t: { columns: string[] }, c: string) => t.columns.indexOf(c)
    const customerOf = new Map(customers.rows.map((r) => [r[at(customers, 'accountNumber')], r[at(customers, 'id')]]))
    const numberOf = new Map(numbers.rows.map((r) => [r[at(numbers, 'number')], r[at(numbers, 'customerID')]]))
    const pairs = [...customerOf.keys()].filter((k) => k?.startsWith('PAIR-'))
    assert.ok(pairs.length >= 200, 'everything committed before the export is in')
    for (const k of pairs) assert.is(numberOf.get(k), customerOf.get(k), `${k}: its number is in too`)
    for (const k of [...numberOf.keys()].filter((n) => n?.startsWith('PAIR-'))) assert.ok(customerOf.has(k), `${k}: its customer is in too`)
    assert.ok(during > 0, 'pairs were written while the archive was made')
    const counter = archived.get(ID_COUNTERS)!.rows.find((r) => r[0] === 'customers')!
    assert.ok(BigInt(counter[1]!) >= BigInt(Math.max(...[...customerOf.values()].map(Number))), 'the ID counter is past every archived ID')
  })

  test.run()
}
