import { sql } from 'kysely'
import * as assert from 'uvu/assert'
import type { Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { exportSnapshot } from '../../adapters/persistence/snapshot/export-snapshot.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { NewCall } from '../../core/ports/rating-data.js'
import { activeTargets } from '../support/targets.js'
import { bareDatabaseSuite } from '../support/bare-databases.js'

const stamp = '2026-01-05T00:00:00.000Z'

/** A call as an import writes it, by its start and fingerprint. */
export const newCall = (startTime: string, fingerprint: string): NewCall =>
  ({
    usageFileID: null, customerID: '1', numberID: null, tariffID: null, pricingFeatureID: null, callingNumber: '01632000001', dialledNumber: '07700900001',
    startTime, durationSeconds: 60, bytes: null, events: null, callType: 'Mobile', chargeBand: 'UK Mobile', carrier: 'BT',
    cost: 100n, carrierCost: null, ratedDuration: 60, timeBand: 'Peak', allowanceSeconds: null, origination: 'fixed', recorded: false,
    rated: true, unbilledReason: null, ignoredReason: null, deleted: false, callMark: 0, fingerprint, createdStamp: stamp, updatedStamp: stamp,
  }) as NewCall

/** Migration 0058 (calls and transactions as a partition per month on Postgres), on a database with rows. */
for (const name of activeTargets()) {
  const test = bareDatabaseSuite(`0058 month partitions [${name}]`, name)

  const rows = async (database: Database, table: string, key: string) =>
    (await sql<{ id: unknown; key: string | null }>`select id, ${sql.ref(key)} as key from ${sql.table(table)} order by id`.execute(database.db)).rows.map((r) => [Number(r.id), r.key])

  test('rows keep their IDs and months, IDs go on where they were, and a duplicate call is still skipped', async ({ target, database }) => {
    await migrate(database, target.schema, '0045-call-coverage')
    const { db } = database
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    const call = (start: string, fingerprint: string) =>
      sql`insert into calls ("customerID", "startTime", cost, rated, deleted, fingerprint, "createdStamp", "updatedStamp") values (1, ${start}, 100, 1, 0, ${fingerprint}, ${stamp}, ${stamp})`.execute(db)
    await call('2026-01-10T10:00:00.000Z', 'f1')
    await call('2026-02-03T10:00:00.000Z', 'f2')
    await call('2026-02-04T10:00:00.000Z', 'f3')
    // The last ID given is deleted: the next is still 4, not 3.
    await sql`delete from calls where id = 3`.execute(db)
    const ledger = (type: string, from: string | null, reference: string | null) =>
      sql`insert into transactions ("customerID", "transactionType", "transactionDate", "dateFrom", amount, approved, "providerReference", "createdStamp", "updatedStamp")
        values (1, ${type}, '2026-01-31', ${from}, 200, 0, ${reference}, ${stamp}, ${stamp})`.execute(db)
    await ledger('Call Charges', '2026-01-10', null)
    await ledger('Payment', null, 'P1')
    await ledger('Recurring Charge', '2025-12-01', null)

    await migrate(database, target.schema)

    assert.equal(await rows(database, 'calls', 'startTime'), [[1, '2026-01-10T10:00:00.000Z'], [2, '2026-02-03T10:00:00.000Z']])
    assert.equal(await rows(database, 'transactions', 'dateFrom'), [[1, '2026-01-10'], [2, null], [3, '2025-12-01']])
    const partitions = database.dialect.partitions
    if (partitions) {
      assert.equal(await partitions.months(db, 'calls'), ['2026-01', '2026-02'])
      assert.equal(await partitions.months(db, 'transactions'), ['2025-12', '2026-01'])
      const where = await sql<{ id: unknown; part: string }>`select id, tableoid::regclass::text as part from transactions order by id`.execute(db)
      assert.equal(where.rows.map((r) => [Number(r.id), r.part]), [[1, 'transactions_2026_01'], [2, 'transactions_default'], [3, 'transactions_2025_12']])
    }

    const store = new KyselyStore(db, database.dialect, resourcesByName)
    assert.is(await store.rating.insertCalls([newCall('2026-02-05T10:00:00.000Z', 'f4')]), 1)
    assert.equal((await rows(database, 'calls', 'startTime')).map(([id]) => id), [1, 2, 4])
    assert.is(await store.rating.insertCalls([newCall('2026-01-10T10:00:00.000Z', 'f1')]), 0, 'imported before: skipped')
    const created = await store.repository('transactions').insert({ customerID: '1', transactionType: 'Payment', transactionDate: '2026-02-01', amount: -100n, createdStamp: stamp, updatedStamp: stamp } as never)
    assert.is(created.id, '4')
    // A provider's payment is recorded once (apply-callback.ts relies on the index; its provider is kept since 0086).
    await sql`update transactions set "paymentProvider" = 'stripe' where id = 2`.execute(db)
    const again = store.repository('transactions').insert({ customerID: '1', transactionType: 'Payment', transactionDate: '2026-02-01', paymentProvider: 'stripe', providerReference: 'P1', amount: -100n, createdStamp: stamp, updatedStamp: stamp } as never)
    await again.then(
      () => assert.unreachable('a second payment of P1 was stored'),
      (e: { code?: string }) => assert.is(e.code, 'unique_taken'),
    )

    // A snapshot reads a partitioned table once, not its months as tables of their own.
    const tables: Record<string, number> = {}
    await exportSnapshot(database, async ({ table, batches }) => {
      tables[table] = 0
      for await (const batch of batches) tables[table] += batch.length
    }, 2)
    assert.is(tables.calls, 3)
    assert.is(tables.transactions, 4)
    assert.not.ok(Object.keys(tables).some((t) => /_(default|\d{4}_\d{2})$/.test(t)), Object.keys(tables).join(' '))
  })

  test.run()
}
