import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { sql } from 'kysely'
import type { Values } from '../../core/fields/item.js'
import type { Money } from '../../core/money/money.js'
import { FIRST_REFRESH_ROWS, PlannerStatistics, statisticsStale } from '../../adapters/persistence/planner-statistics.js'
import type { Db } from '../../adapters/persistence/schema/tables.js'
import { newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * The planner's statistics of the tables a billing run grows are refreshed by the persistence
 * adapter from the rows written (issue 26: not by core): first after 5,000 rows, then each time
 * the table has doubled since its statistics were taken. On Postgres the refresh is an `ANALYZE`
 * after the commit, seen in `pg_class.reltuples`; SQLite's planner needs none.
 */

const rules = suite('when statistics are stale')
rules('first after 5,000 rows written, then after as many rows as they counted', () => {
  assert.equal(FIRST_REFRESH_ROWS, 5_000)
  assert.equal(
    [statisticsStale(4_999, 0), statisticsStale(5_000, 0), statisticsStale(5_000, 4_000), statisticsStale(9_999, 10_000), statisticsStale(10_000, 10_000), statisticsStale(19_999, 20_000)],
    [false, true, true, false, true, false],
  )
})
rules('however the writes are cut into commits, a table that grows is refreshed at each doubling, no more', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 4_000 }), { maxLength: 80 }), (commits) => {
      let rows = 0
      let known = 0
      let written = 0
      let refreshes = 0
      for (const n of commits) {
        rows += n
        written += n
        if (statisticsStale(written, known)) {
          refreshes++
          written = 0
          known = rows
        }
      }
      const points = rows < FIRST_REFRESH_ROWS ? 0 : Math.floor(Math.log2(rows / FIRST_REFRESH_ROWS)) + 1
      assert.ok(refreshes <= points && (points === 0 || refreshes >= 1), `${refreshes} refreshes for ${points} points at ${rows} rows`)
    }),
  )
})
rules('a refresh that fails does not fail the commit it follows, and is tried again after the next one', async () => {
  let analyses = 0
  let failing = true
  const statistics = new PlannerStatistics({
    tableCounts: async () => ({ known: 0, modified: 0 }),
    analyze: async () => {
      analyses++
      if (failing) throw new Error('canceling statement due to lock timeout')
    },
  })
  const db = {} as Db
  statistics.wrote('transactions', 6_000)
  await statistics.refresh(db)
  assert.is(analyses, 1)
  failing = false
  statistics.wrote('transactions', 1)
  await statistics.refresh(db)
  assert.is(analyses, 2, 'the 6,001 rows still count')
  statistics.wrote('transactions', 1)
  await statistics.refresh(db)
  assert.is(analyses, 2, 'and not after a refresh that succeeded')
})
rules.run()

/** The rows Postgres's planner counted in the ledger at its last ANALYZE (-1: never analysed). */
async function plannerRows(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = to_regclass('transactions')`.execute(db)
  return Number(rows[0].n)
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`ledger statistics refreshed from the rows written [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T00:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('a transaction that writes 5,000 ledger rows has them counted once it commits; fewer do not', async ({ h }) => {
    const { store } = h.platform.context
    const customerID = await newCustomer(h)
    const stamp = '2026-01-01T00:00:00.000Z'
    const rows = (n: number): Values[] =>
      Array.from({ length: n }, (_, i) => ({ customerID, transactionType: 'Miscellaneous Charge', transactionDate: '2026-01-05', amount: BigInt(i + 1) as Money, createdStamp: stamp, updatedStamp: stamp }))
    const write = (n: number) => store.transaction((tx) => tx.ledger.write({ inserts: rows(n), updates: [], deletes: [], features: [] }))
    if (target !== 'postgres') {
      assert.is(h.platform.database.dialect.statistics, null)
      await write(5_000)
      return
    }
    const db = h.platform.database.db
    const before = await plannerRows(db)
    await write(3_000)
    assert.is(await plannerRows(db), before, 'not yet: 3,000 rows')
    // Inside the transaction nothing is refreshed; after its commit the 6,000 rows are counted.
    await store.transaction(async (tx) => {
      await tx.ledger.write({ inserts: rows(3_000), updates: [], deletes: [], features: [] })
      assert.is(await plannerRows(db), before, 'not before the commit')
    })
    assert.is(await plannerRows(db), 6_000)
    // The next refresh waits for the table to double.
    await write(5_000)
    assert.is(await plannerRows(db), 6_000)
    await write(1_000)
    assert.is(await plannerRows(db), 12_000)
  })

  test.run()
}
