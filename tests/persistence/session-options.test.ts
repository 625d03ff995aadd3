import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../adapters/persistence/connect.js'
import { activeTargets, openTarget } from '../support/targets.js'

/** A connection's session settings add up: PGOPTIONS, the URL's options, the schema's search path. */
if (activeTargets().includes('postgres')) {
  const test = suite('postgres session options [postgres]')

  test('PGOPTIONS and the URL\'s options are kept beside a schema', async () => {
    const target = openTarget('postgres')
    const before = process.env.PGOPTIONS
    process.env.PGOPTIONS = '-c statement_timeout=123000'
    const url = `${target.databaseUrl}${target.databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c lock_timeout=4567')}`
    const d = connect(url, { schema: target.schema })
    try {
      const show = async (name: string) => (await sql.raw<{ v: string }>(`select current_setting('${name}') as v`).execute(d.db)).rows[0].v
      assert.is(await show('statement_timeout'), '123s')
      assert.is(await show('lock_timeout'), '4567ms')
      assert.is(await show('search_path'), target.schema)
    } finally {
      if (before === undefined) delete process.env.PGOPTIONS
      else process.env.PGOPTIONS = before
      await d.close()
      await target.dispose()
    }
  })

  test.run()
}
