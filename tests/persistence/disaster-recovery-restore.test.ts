import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { csvRecord, parseCsv, type Cell } from '../../adapters/archive/csv.js'
import { restoreArchive } from '../../adapters/archive/restore-archive.js'
import { connect } from '../../adapters/persistence/connect.js'
import { ID_COUNTERS } from '../../adapters/persistence/snapshot/id-counters.js'
import { generateArchive } from '../../core/disaster-recovery/archive-jobs.js'
import { readArchive, readTable, seedAwkwardRows } from '../support/archives.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets, openTarget, type TargetName } from '../support/targets.js'
import { childEntry } from '../support/child-entry.js'

const PASSWORD = 'correct horse, "battery" staple'

const csv = suite('csv files of an archive')

async function* chunked(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}

csv('any cells survive writing and parsing, whatever the chunk boundaries (property)', async () => {
  const cell = fc.oneof(fc.constant(null), fc.constant(''), fc.string(), fc.stringMatching(/^[",\r\n a]{0,6}$/))
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 6 }), fc.integer({ min: 1, max: 7 }), async (rows, size) => {
      const text = rows.map(csvRecord).join('')
      const parsed: Cell[][] = []
      for await (const r of parseCsv(chunked(text, size))) parsed.push(r)
      assert.equal(parsed, rows)
    }),
    { numRuns: 300 },
  )
})

csv('quoting follows RFC 4180; NULL is an empty field and the empty string ""', async () => {
  assert.is(csvRecord(['a', null, '', 'b,c', 'say "x"', 'l1\nl2']), 'a,,"","b,c","say ""x""","l1\nl2"\r\n')
  for (const bad of ['a"b\r\n', '"a"b\r\n', '"open\r\n']) {
    await (async () => {
      for await (const _ of parseCsv(chunked(bad, 100))) void _
    })().then(
      () => assert.unreachable(bad),
      // csv-parse finds an unclosed quote at the end of the file, a line after where it opened.
      (e: Error) => assert.match(e.message, /^CSV line [12]: /),
    )
  }
})

csv.run()

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; dir: string }>(`disaster recovery restore [${target}]`)
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'dr-restore-'))
    ctx.h = await openHarness(target, { config: { drDir: ctx.dir, drPassword: PASSWORD } })
    await seedAwkwardRows(ctx.h)
  })
  test.after(async (ctx) => {
    await ctx.h.close()
    rmSync(ctx.dir, { recursive: true, force: true })
  })

  test('a restore into a fresh database reproduces every table and continues each ID counter where it stood', async (ctx) => {
    const { h } = ctx
    // The newest rows are deleted before the archive: their IDs stay used (contract §2). The
    // number's feature leaves the features table empty, so only the counter remembers its ID.
    const c = await h.request('POST', '/customers', { accountNumber: 'DR-GONE' })
    const gone: { numbers: bigint; features: bigint } = { numbers: 0n, features: 0n }
    for (const i of [1, 2]) {
      const n = await h.request('POST', `/customers/${c.body.id}/numbers`, { number: `0117 496 10${i}` })
      const f = await h.request('POST', `/numbers/${n.body.id}/features`, {})
      assert.is(f.status, 201, f.text)
      gone.numbers = BigInt(n.body.id)
      gone.features = BigInt(f.body.id)
    }
    for (const id of [gone.numbers - 1n, gone.numbers]) assert.is((await h.request('DELETE', `/numbers/${id}`)).status, 200)
    const item = await generateArchive(h.platform.context)
    const path = join(ctx.dir, item.filename as string)
    const archived = await readArchive(path, PASSWORD)
    assert.ok(archived.has(ID_COUNTERS), 'the archive carries the ID counters')
    archived.delete(ID_COUNTERS)
    assert.equal(archived.get('features')!.rows, [])
    // The same database kind, and across: a SQLite archive into Postgres and back.
    const across: TargetName | null = target === 'postgres' ? 'sqlite-file' : target === 'sqlite-file' && activeTargets().includes('postgres') ? 'postgres' : null
    for (const into of across ? [target, across] : [target]) {
      const fresh = openTarget(into)
      const database = connect(fresh.databaseUrl, { schema: fresh.schema })
      try {
        const summary = await restoreArchive({ archive: path, password: PASSWORD, database, schema: fresh.schema })
        assert.equal(summary.newerMigrations, [])
        const order = summary.tables.map((t) => t.table)
        assert.ok(order.indexOf('customers') < order.indexOf('numbers'), 'parents load before children')
        for (const [table, content] of archived) {
          const restored = await readTable(database, table)
          if (table === DEFAULT_MIGRATION_TABLE) {
            const names = (t: typeof content) => t.rows.map((r) => r[t.columns.indexOf('name')])
            assert.equal(names(restored), names(content), 'the same migrations')
          } else if (table !== DEFAULT_MIGRATION_LOCK_TABLE) {
            assert.equal(restored, content, `${table} into ${into}`)
          }
        }
        const ids = archived.get('customers')!.rows.map((r) => Number(r[0]))
        const next = await database.db.insertInto('customers').values({ accountNumber: 'AFTER-RESTORE' }).returning('id').executeTakeFirstOrThrow()
        assert.is(Number(next.id), Math.max(...ids) + 1)
        // Not the deleted rows' IDs again: the counters go on where the archived database's stood.
        for (const table of ['numbers', 'features'] as const) {
          assert.equal(await database.dialect.reserveIds(database.db, table, 1), [gone[table] + 1n], `${table} into ${into}`)
        }
        await restoreArchive({ archive: path, password: PASSWORD, database, schema: fresh.schema }).then(
          () => assert.unreachable('restored into a database that holds data'),
          (e: Error) => assert.match(e.message, /not empty/),
        )
      } finally {
        await database.close()
        await fresh.dispose()
      }
    }
  })

  test.run()
}

const cli = suite('npm run restore')

cli('restores an archive into the empty database at DATABASE_URL; the password comes from the environment', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dr-cli-'))
  const h = await openHarness('sqlite-file', { config: { drDir: dir, drPassword: PASSWORD } })
  try {
    await seedAwkwardRows(h)
    const item = await generateArchive(h.platform.context)
    const archive = join(dir, item.filename as string)
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [...childEntry('apps/cli/restore.ts'), '--archive', archive, '--password-env', 'DR_TEST_PASSWORD'], {
          env: { ...process.env, ...env },
        })
        let out = ''
        let err = ''
        child.stdout.on('data', (d) => (out += d))
        child.stderr.on('data', (d) => (err += d))
        child.on('close', (code) => resolve({ code: code ?? -1, out, err }))
      })
    const url = `sqlite:${join(dir, 'restored.sqlite')}`
    const wrong = await run({ DATABASE_URL: url, DR_TEST_PASSWORD: 'wrong' })
    assert.is(wrong.code, 1)
    assert.match(wrong.err, /7za extract failed/)
    const ok = await run({ DATABASE_URL: url, DR_TEST_PASSWORD: PASSWORD })
    assert.is(ok.code, 0, ok.err)
    assert.match(ok.err, /customers: 6 rows/)
    assert.not.ok(`${ok.out}${ok.err}${wrong.out}${wrong.err}`.includes(PASSWORD), 'the password is never printed')
    const restored = connect(url)
    try {
      assert.equal(await readTable(restored, 'customers'), await readTable(h.platform.database, 'customers'))
    } finally {
      await restored.close()
    }
  } finally {
    await h.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

cli.run()
