import { spawn } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { migrate, pendingMigrations } from '../../adapters/persistence/migrations/migrations.js'
import { childEntry } from '../support/child-entry.js'
import { childDatabaseUrl } from '../support/platform-process.js'
import { activeTargets, connectBare, openTarget, type Target } from '../support/targets.js'

/**
 * A migration run applies whole or not at all, and processes that migrate one database at once
 * take turns (dialect/migration-runs.ts). On SQLite Kysely ran each statement on its own and its
 * migration lock did nothing: a process killed part-way left a migration half applied, so that
 * every later start failed ("duplicate column name"), and a server and a worker started together
 * on one file ran the same migrations side by side ("table already exists").
 */

/** The first of 0085's statements: the test stops the run right after it. */
const FIRST_OF_0085 = /add column "accountNumberKey"/i

const hasColumn = async (database: Database, table: string, column: string) =>
  (await database.db.introspection.getTables()).find((t) => t.name === table)?.columns.some((c) => c.name === column) ?? false

interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stderr: string
}

/** A process that migrates the target when told to (tests/support/migrate-child.ts), once it is connected. */
interface MigratingProcess {
  go(): void
  readonly exited: Promise<Exit>
}

async function startMigrating(target: Target, killAfter?: RegExp): Promise<MigratingProcess> {
  const args = [childDatabaseUrl(target), ...(killAfter ? [killAfter.source] : [])]
  const child = spawn(process.execPath, [...childEntry('tests/support/migrate-child.ts'), ...args], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  let stderr = ''
  child.stderr!.on('data', (c) => (stderr += c))
  const exited = new Promise<Exit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })))
  const ready = new Promise<void>((resolve) => child.once('message', () => resolve()))
  await Promise.race([ready, exited.then((e) => Promise.reject(new Error(`the migrating process ended before it was ready: ${e.stderr}`)))])
  return { go: () => void child.send('go'), exited }
}

for (const name of activeTargets()) {
  const test = suite<{ target: Target }>(`a migration run is whole and one at a time [${name}]`)
  test.before.each((ctx) => void (ctx.target = openTarget(name)))
  test.after.each(({ target }) => target.dispose())

  test('a migration that fails after its first statement is undone whole; the next run applies it', async ({ target }) => {
    let failing = false
    const onQuery = (sql: string) => {
      if (failing && FIRST_OF_0085.test(sql)) throw new Error('stopped after its first statement')
    }
    const database = connect(target.databaseUrl, { schema: target.schema, onQuery })
    try {
      await migrate(database, target.schema, '0084-dropped-number-keys')
      failing = true
      const error = await migrate(database, target.schema).then(() => null, (e: Error) => e)
      failing = false
      assert.match(error?.message ?? 'no error', /migration 0085-login-keys failed: stopped after its first statement/)
      assert.not.ok(await hasColumn(database, 'customers', 'accountNumberKey'), 'its first statement is undone')
      await migrate(database, target.schema)
      assert.equal(await pendingMigrations(database, target.schema), [])
      assert.ok(await hasColumn(database, 'customers', 'accountNumberKey'))
    } finally {
      await database.close()
    }
  })

  // Processes of their own: an in-memory database has only the one that opened it.
  if (name !== 'sqlite-memory') {
    test('a process killed part-way through a migration leaves nothing of it; the next start applies it', async ({ target }) => {
      const database = await connectBare(target)
      try {
        await migrate(database, target.schema, '0084-dropped-number-keys')
        const killed = await startMigrating(target, FIRST_OF_0085)
        killed.go()
        assert.is((await killed.exited).signal, 'SIGKILL')
        assert.not.ok(await hasColumn(database, 'customers', 'accountNumberKey'), 'its first statement is undone')
        await migrate(database, target.schema)
        assert.equal(await pendingMigrations(database, target.schema), [])
      } finally {
        await database.close()
      }
    })

    test('two processes that migrate one new database at once both succeed: one migrates, the other finds it done', async ({ target }) => {
      // Made, not migrated: a new SQLite file, an empty Postgres schema.
      const database = await connectBare(target)
      try {
        const processes = await Promise.all([startMigrating(target), startMigrating(target)])
        for (const p of processes) p.go()
        const exits = await Promise.all(processes.map((p) => p.exited))
        assert.equal(exits.map((e) => e.code), [0, 0], exits.map((e) => e.stderr).join('\n'))
        assert.equal(await pendingMigrations(database, target.schema), [])
      } finally {
        await database.close()
      }
    })
  }

  test.run()
}
