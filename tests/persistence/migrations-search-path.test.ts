import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { activeTargets, connectBare, openTarget } from '../support/targets.js'

/**
 * Two applications in one Postgres database, each in its schema: neither's migrations look at
 * the other's tables. Kysely's own introspector read every schema's tables, so a migrator that
 * knew its schema only from the search path took another schema's migration table for its own,
 * and a table dropped in another schema meanwhile failed a migration outright (two test
 * processes did so now and then).
 */
if (activeTargets().includes('postgres')) {
  const test = suite('migrations see only the schemas of their search path [postgres]')

  test('a database migrated in one schema leaves a new schema, named only by the search path, to be migrated whole', async () => {
    const first = openTarget('postgres')
    const second = openTarget('postgres')
    const a = await connectBare(first)
    try {
      await migrate(a, first.schema)
      // Named only by its connections' search path, as a server's DATABASE_URL names it.
      const b = await connectBare(second)
      try {
        await migrate(b)
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(b.db)
        const { rows: all } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(a.db)
        assert.ok(rows[0].n > 30, `${rows[0].n} migrations recorded in the second schema`)
        assert.is(rows[0].n, all[0].n)
        const tables = await b.db.introspection.getTables({ withInternalKyselyTables: true })
        assert.ok(tables.length > 30)
        assert.equal([...new Set(tables.map((t) => t.schema))], [second.schema], 'only its own schema is read')
        const customers = tables.find((t) => t.name === 'customers')!
        assert.ok(customers.columns.find((c) => c.name === 'id')?.isAutoIncrementing, 'the ID column is auto-incrementing')
        assert.not.ok(customers.columns.find((c) => c.name === 'accountNumber')?.isAutoIncrementing)
      } finally {
        await b.close()
      }
    } finally {
      await a.close()
      await first.dispose()
      await second.dispose()
    }
  })

  test('a migration runs while another schema is dropped and made again beside it', async () => {
    const targets = Array.from({ length: 4 }, () => openTarget('postgres'))
    const churn = openTarget('postgres')
    const url = churn.databaseUrl
    let stop = false
    // Another application making and dropping its tables all the time.
    const churning = (async () => {
      const d = connect(url)
      try {
        while (!stop) {
          await sql`create schema if not exists ${sql.id(churn.schema!)}`.execute(d.db)
          await sql`create table if not exists ${sql.id(churn.schema!)}.services (id serial primary key, status text, a text, b text, c text)`.execute(d.db)
          await sql`drop schema ${sql.id(churn.schema!)} cascade`.execute(d.db)
        }
      } finally {
        await d.close()
      }
    })()
    try {
      for (const target of targets) {
        const d = await connectBare(target)
        try {
          await migrate(d, target.schema)
        } finally {
          await d.close()
        }
      }
    } finally {
      stop = true
      await churning
      for (const t of [...targets, churn]) await t.dispose()
    }
  })

  test.run()
}
