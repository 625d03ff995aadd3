import { sql } from 'kysely'
import * as assert from 'uvu/assert'
import type { Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { callVATRates } from '../../core/billing/call-vat-rates.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { RunCustomer } from '../../core/ports/run-fields.js'
import { activeTargets } from '../support/targets.js'
import { bareDatabaseSuite, exportedTables, restoredArchive } from '../support/bare-databases.js'

const stamp = '2026-01-05T00:00:00.000Z'

/**
 * A database as 0087 left it: customer 1 at 20 %, its number 1 with a feature from 2026-01-01
 * naming the national tariff `Bundle` at 5 %, and national calls 4 and 9 of that number on the
 * 10th, which record no pricing feature (the column is 0088's).
 */
async function storedBefore(database: Database, schema: string | undefined): Promise<void> {
  await migrate(database, schema, '0087-carrier-keys')
  const { db } = database
  await sql`insert into customers (id, "accountNumber", "VATRate", "createdStamp", "updatedStamp") values (1, 'ACC1', 'Standard 20%', ${stamp}, ${stamp})`.execute(db)
  await sql`insert into tariffs (id, name, "createdStamp", "updatedStamp") values (1, 'Bundle', ${stamp}, ${stamp})`.execute(db)
  await sql`insert into numbers (id, "customerID", number, "createdStamp", "updatedStamp") values (1, 1, '01632960001', ${stamp}, ${stamp})`.execute(db)
  await sql`insert into features (id, "customerID", "numberID", "featureType", "startDate", "nationalTariff", "VATRateCalls", "createdStamp", "updatedStamp")
    values (1, 1, 1, 'SIP Channel', '2026-01-01', 'Bundle', 'Reduced 5%', ${stamp}, ${stamp})`.execute(db)
  for (const id of [4, 9]) await call(db, id)
}

async function call(db: Database['db'], id: number, pricingFeatureID?: number | null): Promise<void> {
  const priced = pricingFeatureID === undefined ? sql`` : sql`, "pricingFeatureID"`
  const value = pricingFeatureID === undefined ? sql`` : sql`, ${pricingFeatureID}`
  await sql`insert into calls (id, "customerID", "numberID", "callType", "startTime", cost, rated, deleted, fingerprint, "createdStamp", "updatedStamp"${priced})
    values (${id}, 1, 1, 'national', '2026-01-10T10:00:00.000Z', 1000, 1, 0, ${`f${id}`}, ${stamp}, ${stamp}${value})`.execute(db)
}

/** Each unbilled call of customer 1 with the VAT rate of the Call Charges row it would land in. */
async function rates(database: Database): Promise<[string, string | null][]> {
  const store = new KyselyStore(database.db, database.dialect, resourcesByName)
  const calls = await store.runSource.unbilledCalls(['1'], '2026-02-01T00:00:00.000Z', 1, null)
  const rateOf = await callVATRates(store, calls, ['1'])
  const customer = { id: '1', VATRate: 'Standard 20%', VATRateCalls: null } as unknown as RunCustomer
  return calls.map((c) => [c.id, rateOf(c, customer)])
}

/**
 * 0088: calls record the feature that priced them (`pricingFeatureID`), and their Call Charges
 * row takes its rate; calls stored before record none, and find their feature from the features
 * when billed, as before. A restore of an older archive marks its calls the same way.
 */
for (const name of activeTargets()) {
  const test = bareDatabaseSuite(`migration 0088 pricing features [${name}]`, name)

  test("0088: calls stored before it find their feature again; calls stored since take the one they record, or none", async ({ target, database }) => {
    await storedBefore(database, target.schema)
    await migrate(database, target.schema)
    const store = new KyselyStore(database.db, database.dialect, resourcesByName)
    assert.is(await store.rating.pricingFeaturesUnrecordedThrough(), '9')
    // Call 10: priced by the number's tariff although the feature is active (it was added after
    // the call was rated); call 11: priced by the feature.
    await call(database.db, 10, null)
    await call(database.db, 11, 1)
    assert.equal(await rates(database), [
      ['4', 'Reduced 5%'],
      ['9', 'Reduced 5%'],
      ['10', 'Standard 20%'],
      ['11', 'Reduced 5%'],
    ])
  })

  test('an archive from before 0088 restores its calls as recording no pricing feature', async ({ target, database }) => {
    await storedBefore(database, target.schema)
    await restoredArchive(name, await exportedTables(database), async (restored, summary) => {
      assert.ok(summary.newerMigrations.includes('0088-pricing-features'))
      assert.is(await new KyselyStore(restored.db, restored.dialect, resourcesByName).rating.pricingFeaturesUnrecordedThrough(), '9')
      assert.equal(await rates(restored), [
        ['4', 'Reduced 5%'],
        ['9', 'Reduced 5%'],
      ])
    })
  })

  test.run()
}
