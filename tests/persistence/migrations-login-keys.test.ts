import { sql } from 'kysely'
import * as assert from 'uvu/assert'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import { activeTargets } from '../support/targets.js'
import { bareDatabaseSuite } from '../support/bare-databases.js'

/**
 * 0085: customers and contacts keep their login's sign-in key (`accountNumberKey`, `emailKey`,
 * core/portal/portal-login.ts `loginKey`) beside it, indexed. Rows stored before get theirs;
 * the logins themselves stay as they were.
 */
for (const name of activeTargets()) {
  const test = bareDatabaseSuite(`migration 0085 login keys [${name}]`, name)

  test('0085: stored account numbers and emails get their keys, blank or none get null; sign-in finds them by key', async ({ target, database }) => {
    await migrate(database, target.schema, '0084-dropped-number-keys')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    const accounts: [number, string | null][] = [[1, 'ACC-7 '], [2, 'Cafe\u0301'], [3, null], [4, '   '], [5, 'Plain']]
    for (const [id, accountNumber] of accounts) {
      await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (${id}, ${accountNumber}, ${stamp}, ${stamp})`.execute(db)
    }
    const emails: [number, string | null][] = [[1, 'Ann@Space.example'], [2, ' bob@space.example'], [3, null], [4, ''], [5, 'ZO\u00c9@x.example']]
    for (const [id, email] of emails) {
      await sql`insert into customer_contacts (id, "customerID", email, "createdStamp", "updatedStamp") values (${id}, 1, ${email}, ${stamp}, ${stamp})`.execute(db)
    }
    await migrate(database, target.schema)

    const keys = async (table: string, column: string) =>
      (await sql<{ id: unknown; login: string | null; key: string | null }>`select id, ${sql.ref(column)} as login, ${sql.ref(`${column}Key`)} as key from ${sql.table(table)} order by id`.execute(db)).rows.map((r) => [Number(r.id), r.login, r.key])
    assert.equal(await keys('customers', 'accountNumber'), [[1, 'ACC-7 ', 'ACC-7'], [2, 'Cafe\u0301', 'Caf\u00e9'], [3, null, null], [4, '   ', null], [5, 'Plain', 'Plain']])
    assert.equal(await keys('customer_contacts', 'email'), [[1, 'Ann@Space.example', 'ann@space.example'], [2, ' bob@space.example', 'bob@space.example'], [3, null, null], [4, '', null], [5, 'ZO\u00c9@x.example', 'zo\u00e9@x.example']])

    const store = new KyselyStore(db, database.dialect, resourcesByName)
    const [cafe] = await store.repository('customers').list({ where: [{ op: 'eq', column: 'accountNumberKey', value: 'Caf\u00e9' }], limit: 20 })
    assert.is(cafe?.accountNumber, 'Cafe\u0301', 'found by key, read as stored')
    const [bob] = await store.contacts.list({ where: [{ op: 'eq', column: 'emailKey', value: 'bob@space.example' }], limit: 20 })
    assert.is(bob?.email, ' bob@space.example')
  })

  test.run()
}
