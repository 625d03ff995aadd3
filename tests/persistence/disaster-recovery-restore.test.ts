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
import { generateArchive } from '../../core/disaster-recovery/archive-jobs.js'
import { readArchive, readTable, seedAwkwardRows } from '../support/archives.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets, openTarget } from '../support/targets.js'
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

  test('a restore into a fresh database reproduces every table and moves the ID generators on', async (ctx) => {
    const { h } = ctx
    const item = await generateArchive(h.platform.context)
    const path = join(ctx.dir, item.filename as string)
    const archived = await readArchive(path, PASSWORD)
    const fresh = openTarget(target)
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
          assert.equal(restored, content, table)
        }
      }
      const ids = archived.get('customers')!.rows.map((r) => Number(r[0]))
      const next = await database.db.insertInto('customers').values({ accountNumber: 'AFTER-RESTORE' }).returning('id').executeTakeFirstOrThrow()
      assert.is(Number(next.id), Math.max(...ids) + 1)
      await restoreArchive({ archive: path, password: PASSWORD, database, schema: fresh.schema }).then(
        () => assert.unreachable('restored into a database that holds data'),
        (e: Error) => assert.match(e.message, /not empty/),
      )
    } finally {
      await database.close()
      await fresh.dispose()
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
