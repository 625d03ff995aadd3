import { sql } from 'kysely'
import * as assert from 'uvu/assert'
import type { Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import { activeTargets } from '../support/targets.js'
import { bareDatabaseSuite, exportedTables, restoredArchive } from '../support/bare-databases.js'

const stamp = '2026-02-01T00:00:00.000Z'
const card = { type: 'cardPayment', providerName: 'stripe', label: 'Pay by card', url: 'https://pay.example.com/card/x' }
const debit = { type: 'directDebitSetup', providerName: 'gocardless', label: 'Set up a Direct Debit', url: 'https://pay.example.com/dd/x' }
const otherCard = { ...card, providerName: 'adyen' }

/**
 * Payments as 0085 left them, and other transactions. Told by their history entry's author: 1
 * (stripe) and 7 (adyen, whatever its description says); by the one provider of the customer's
 * links whose label and the reference make the description: 2 (gocardless); by nothing: 3 (a
 * label no link has), 4 (two providers of the customer's links share the label).
 */
async function storedBefore(database: Database, schema: string | undefined): Promise<void> {
  await migrate(database, schema, '0085-login-keys')
  const { db } = database
  for (const id of [1, 2]) await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (${id}, ${`ACC${id}`}, ${stamp}, ${stamp})`.execute(db)
  const link = (id: number, customerID: number, links: object[]) =>
    sql`insert into payment_links (id, "paymentLinkUUID", "customerID", amount, status, links, "createdStamp", "updatedStamp")
      values (${id}, ${`uuid-${id}`}, ${customerID}, 10000, 'Paid', ${JSON.stringify(links)}, ${stamp}, ${stamp})`.execute(db)
  await link(1, 1, [card, debit])
  await link(2, 2, [card])
  await link(3, 2, [otherCard])
  const ledger = (id: number, customerID: number, type: string, dateFrom: string | null, reference: string | null, description: string) =>
    sql`insert into transactions (id, "customerID", "transactionType", "transactionDate", "dateFrom", amount, approved, settles, "providerReference", description, "createdStamp", "updatedStamp")
      values (${id}, ${customerID}, ${type}, '2026-01-31', ${dateFrom}, -1000, 0, 1, ${reference}, ${description}, ${stamp}, ${stamp})`.execute(db)
  await ledger(1, 1, 'Payment', null, 'pi_1', 'Pay by card (pi_1)')
  await ledger(2, 1, 'Payment', null, '1001', 'Set up a Direct Debit (1001)')
  await ledger(3, 1, 'Payment', null, '1002', 'An old label (1002)')
  await ledger(4, 2, 'Payment', null, '1003', 'Pay by card (1003)')
  await ledger(5, 1, 'Payment', null, null, 'Cheque')
  await ledger(6, 1, 'Call Charges', '2026-01-01', null, 'Calls')
  await ledger(7, 2, 'Payment', null, '1004', 'Pay by card (1004)')
  const entry = (resourceID: number, apiKeyName: string) =>
    sql`insert into history (resource, "resourceID", "customerID", action, changes, "apiKeyName", "createdStamp", "updatedStamp")
      values ('transactions', ${resourceID}, 1, 'create', '{}', ${apiKeyName}, ${stamp}, ${stamp})`.execute(db)
  await entry(1, 'provider:stripe')
  await entry(5, 'test-admin')
  await entry(7, 'provider:adyen')
}

const told = [
  [1, 'stripe', 'pi_1'],
  [2, 'gocardless', '1001'],
  [3, null, '1002'],
  [4, null, '1003'],
  [5, null, null],
  [6, null, null],
  [7, 'adyen', '1004'],
]

const providers = async (database: Database) =>
  (await sql<{ id: unknown; provider: string | null; reference: string | null }>`
    select id, "paymentProvider" as provider, "providerReference" as reference from transactions order by id`.execute(database.db)).rows.map((r) => [Number(r.id), r.provider, r.reference])

/**
 * 0086: a payment a provider reported keeps its provider (`paymentProvider`), and its reference
 * is unique per provider. Stored payments get theirs where it can be told; the others stay null
 * (apply-callback.ts takes them for any provider's). A restore of an older archive does the same.
 */
for (const name of activeTargets()) {
  const test = bareDatabaseSuite(`migration 0086 payment providers [${name}]`, name)

  test('0086: stored payments get the provider their history or their links tell, the others none; a reference is then unique per provider', async ({ target, database }) => {
    await storedBefore(database, target.schema)
    await migrate(database, target.schema)
    assert.equal(await providers(database), told)

    const transactions = new KyselyStore(database.db, database.dialect, resourcesByName).repository('transactions')
    const payment = (paymentProvider: string, providerReference: string) =>
      transactions.insert({ customerID: '1', transactionType: 'Payment', transactionDate: '2026-02-02', amount: -100n, settles: true, paymentProvider, providerReference, createdStamp: stamp, updatedStamp: stamp } as never)
    const taken = (p: Promise<unknown>) => p.then(() => assert.unreachable('a second payment of the pair was stored'), (e: { code?: string }) => assert.is(e.code, 'unique_taken'))
    await taken(payment('stripe', 'pi_1'))
    await payment('gocardless', 'pi_1')
    await taken(payment('gocardless', 'pi_1'))
    await payment('stripe', '1001')
  })

  test('an archive from before 0086 restores its payments with the providers 0086 tells', async ({ target, database }) => {
    await storedBefore(database, target.schema)
    await restoredArchive(name, await exportedTables(database), async (restored, summary) => {
      assert.ok(summary.newerMigrations.includes('0086-payment-providers'))
      assert.equal(await providers(restored), told)
    })
  })

  test.run()
}
