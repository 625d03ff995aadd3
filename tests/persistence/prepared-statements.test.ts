import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { activeTargets, openTarget } from '../support/targets.js'

/** Postgres only: statements the pool repeats are prepared once per connection and give the same rows. */
if (activeTargets().includes('postgres')) {
  const test = suite('postgres prepares the statements it repeats')
  test('a statement run three times is prepared on its connection; a one-off is not; rows are the same', async () => {
    const target = openTarget('postgres')
    const database = connect(target.databaseUrl, { schema: target.schema, poolSize: 1 })
    try {
      await migrate(database, target.schema)
      const db = database.db
      await db.insertInto('usage_files').values([{ name: 'a.csv' }, { name: 'b.csv' }]).execute()
      const read = (name: string) => db.selectFrom('usage_files').select(['id', 'name']).where('name', '=', name).execute()
      const results = [await read('a.csv'), await read('b.csv'), await read('a.csv'), await read('b.csv'), await read('zz')]
      assert.equal(results.map((rows) => rows.map((r) => r.name)), [['a.csv'], ['b.csv'], ['a.csv'], ['b.csv'], []])
      const prepared = async (fragment: string) =>
        Number((await sql<{ n: string }>`select count(*) as n from pg_prepared_statements where statement like ${`%${fragment}%`}`.execute(db)).rows[0].n)
      assert.is(await prepared('"usage_files" where "name" = $1'), 1, 'the repeated select is prepared once')
      await db.selectFrom('usage_files').select('id').where('id', '=', 12345).execute()
      assert.is(await prepared('where "id" = $1'), 0, 'a statement run once is not')
    } finally {
      await database.close()
      await target.dispose()
    }
  })
  test.run()
}
