import { sql } from 'kysely'
import * as assert from 'uvu/assert'
import type { Database } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { activeTargets, openTarget } from '../support/targets.js'
import { bareDatabaseSuite, exportedTables, restoredArchive } from '../support/bare-databases.js'

const stamp = '2026-02-01T00:00:00.000Z'

/**
 * A migration's backfill, run in place, and a restore of an archive taken just before it (by a
 * release that had not run it) must leave the same data: the archive is restored with a later
 * release (docs/restore.md), which runs the backfill itself.
 */
async function inPlaceAndRestored(name: Parameters<typeof openTarget>[0], database: Database, schema: string | undefined, migration: string, read: (db: Database['db']) => Promise<unknown>): Promise<[unknown, unknown]> {
  const tables = await exportedTables(database)
  await migrate(database, schema)
  const inPlace = await read(database.db)
  return restoredArchive(name, tables, async (restored, summary) => {
    assert.ok(summary.newerMigrations.includes(migration), `the archive is from before ${migration}`)
    return [inPlace, await read(restored.db)] as [unknown, unknown]
  })
}

for (const name of activeTargets()) {
  const test = bareDatabaseSuite(`restores of archives from before a backfill [${name}]`, name)

  test("an archive from before 0068 restores its credit notes claimed by the first completed run on or after them, as 0068 claims them", async ({ target, database }) => {
    await migrate(database, target.schema, '0067-carrier-bill-missing')
    const { db } = database
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    for (const [id, status, invoiceDate] of [[1, 'Complete', '2026-01-31'], [2, 'Complete', '2026-02-28'], [3, 'Running', '2026-03-31']] as const) {
      await sql`insert into billing_runs (id, name, status, "invoiceDate", "createdStamp", "updatedStamp") values (${id}, ${`run ${id}`}, ${status}, ${invoiceDate}, ${stamp}, ${stamp})`.execute(db)
    }
    for (const [id, date] of [[1, '2026-01-15'], [2, '2026-02-10'], [3, '2026-03-05']] as const) {
      await sql`insert into credit_notes (id, "customerID", date, "createdStamp", "updatedStamp") values (${id}, 1, ${date}, ${stamp}, ${stamp})`.execute(db)
    }
    const read = async (db: Database['db']) =>
      (await sql<{ id: unknown; run: unknown }>`select id, "commissionBillingRunID" as run from credit_notes order by id`.execute(db)).rows.map((r) => [Number(r.id), r.run === null ? null : Number(r.run)])
    const [inPlace, restored] = await inPlaceAndRestored(name, database, target.schema, '0068-commission-credits', read)
    assert.equal(inPlace, [[1, 1], [2, 2], [3, null]])
    assert.equal(restored, inPlace)
  })

  test('an archive from before 0070 restores the ignore-traffic entry of a number reinstated since as ending on its reinstate, as 0070 ends it', async ({ target, database }) => {
    await migrate(database, target.schema, '0069-session-password-receipt-age')
    const { db } = database
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    // Number 1 dropped with All Traffic ignored on 10 Jan and reinstated on 20 Jan; number 2 still dropped.
    for (const [id, dropped, updatedDate] of [[1, 0, '2026-01-20'], [2, 1, '2026-01-10']] as const) {
      await sql`insert into numbers (id, "customerID", number, "isDropped", "updatedDate", "createdStamp", "updatedStamp") values (${id}, 1, ${`0163296000${id}`}, ${dropped}, ${updatedDate}, ${stamp}, ${stamp})`.execute(db)
      await sql`insert into ignore_traffic (id, "customerID", "numberID", number, type, "fromDate") values (${id}, 1, ${id}, ${`0163296000${id}`}, 'All Traffic', '2026-01-10')`.execute(db)
    }
    const read = async (db: Database['db']) =>
      (await sql<{ numberID: unknown; reinstatedDate: string | null }>`select "numberID", "reinstatedDate" from ignore_traffic order by id`.execute(db)).rows.map((r) => [Number(r.numberID), r.reinstatedDate])
    const [inPlace, restored] = await inPlaceAndRestored(name, database, target.schema, '0070-reinstate-gaps', read)
    assert.equal(inPlace, [[1, '2026-01-20'], [2, null]])
    assert.equal(restored, inPlace)
  })

  test("an archive from before 0071 restores its completed runs' commission terms, as 0071 keeps them; a run not complete keeps none", async ({ target, database }) => {
    await migrate(database, target.schema, '0070-reinstate-gaps')
    const { db } = database
    await sql`insert into customers (id, "accountNumber", "commissionHolder", "createdStamp", "updatedStamp") values (1, 'ACC1', 'Alice', ${stamp}, ${stamp})`.execute(db)
    await sql`insert into features (id, "customerID", "startDate", "serviceChargeInterval", "serviceChargeCommission", "serviceChargeCommissionType", "createdStamp", "updatedStamp")
      values (1, 1, '2026-01-01', 'Calendar Monthly', 100000, 'Percentage', ${stamp}, ${stamp})`.execute(db)
    for (const [id, status] of [[1, 'Complete'], [2, 'Running']] as const) {
      await sql`insert into billing_runs (id, name, status, "invoiceDate", "createdStamp", "updatedStamp") values (${id}, ${`run ${id}`}, ${status}, '2026-01-31', ${stamp}, ${stamp})`.execute(db)
      await sql`insert into invoices (id, "customerID", "billingRunID", "invoiceDate", "netAmount", "VATAmount", "totalAmount", status, "createdStamp", "updatedStamp")
        values (${id}, 1, ${id}, '2026-01-31', 500000, 0, 500000, 'Unpaid', ${stamp}, ${stamp})`.execute(db)
      await sql`insert into transactions (id, "customerID", "featureID", kind, "transactionType", "transactionDate", "dateFrom", "dateTo", amount, approved, "invoiceID", "createdStamp", "updatedStamp")
        values (${id}, 1, 1, 'recurring', 'Recurring Charge', '2026-01-01', '2026-01-01', '2026-01-31', 500000, 1, ${id}, ${stamp}, ${stamp})`.execute(db)
    }
    const read = async (db: Database['db']) =>
      (await sql<Record<string, unknown>>`select * from commission_terms order by "billingRunID", "transactionID"`.execute(db)).rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])),
      )
    const [inPlace, restored] = await inPlaceAndRestored(name, database, target.schema, '0071-commission-terms', read)
    assert.equal((inPlace as Record<string, unknown>[]).map((r) => [Number(r.billingRunID), Number(r.transactionID), r.holder, Number(r.serviceChargeCommission)]), [[1, 1, 'Alice', 100000]])
    assert.equal(restored, inPlace)
  })

  test.run()
}
