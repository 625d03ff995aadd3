import { sql } from 'kysely'
import * as assert from 'uvu/assert'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { KyselyPortalSessions } from '../../adapters/persistence/repositories/kysely-portal-sessions.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { Customer } from '../../core/fields/entity.js'
import { openingsOf, portalClosing, sameOpening } from '../../core/portal/portal-opening.js'
import type { Stamp } from '../../core/dates/stamp.js'
import { activeTargets } from '../support/targets.js'
import { bareDatabaseSuite } from '../support/bare-databases.js'

/**
 * 0078: customers count their portal's openings and sessions keep the openings they signed in
 * to. Sessions stored before hold as they did while their customer's portal stays open, and end
 * at its first close, even once it is opened again.
 */
for (const name of activeTargets()) {
  const test = bareDatabaseSuite(`migration 0078 portal openings [${name}]`, name)

  test("0078: sessions from before hold while their customer's portal stays open; a close and a reopening end them, not a new sign-in", async ({ target, database }) => {
    await migrate(database, target.schema, '0077-orphan-marks')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "portalCustomerProfile", "createdStamp", "updatedStamp") values (1, 'ACC1', 'Standard Portal', ${stamp}, ${stamp})`.execute(db)
    await sql`insert into customers (id, "accountNumber", "portalCustomerProfile", "createdStamp", "updatedStamp") values (2, 'ACC2', 'Standard Portal', ${stamp}, ${stamp})`.execute(db)
    for (const [token, customerID, contactID] of [['pin', '1', null], ['contact', '1', '7'], ['unchosen', null, '8']] as const) {
      await sql`insert into portal_sessions ("tokenHash", "customerID", "contactID", actor, "csrfToken", "createdStamp", "lastSeenStamp")
        values (${token}, ${customerID}, ${contactID}, 'portal:pin', 'csrf', ${stamp}, ${stamp})`.execute(db)
    }
    await migrate(database, target.schema)

    const store = new KyselyStore(db, database.dialect, resourcesByName)
    const sessions = new KyselyPortalSessions(db, database.dialect)
    const customers = store.repository('customers')
    const customer = async (id: string) => (await customers.get(id)) as Customer
    const setPortal = async (id: string, portalCustomerProfile: string | null) => {
      const values = { portalCustomerProfile }
      await customers.update(id, { ...values, ...portalClosing(values, (await customers.get(id))!) })
    }
    const holds = async (token: string, id: string) => sameOpening((await sessions.find(token))!, await customer(id))

    for (const token of ['pin', 'contact', 'unchosen']) {
      assert.is((await sessions.find(token))!.portalOpenings, null, `${token}: nothing recorded`)
      assert.ok(await holds(token, '1'), `${token}: holds after the migration`)
    }
    assert.is((await customer('1')).portalOpening, null)

    await setPortal('1', 'View Only')
    assert.ok(await holds('pin', '1'), 'a profile changed is not a close')
    await setPortal('1', null)
    await setPortal('1', 'Standard Portal')
    assert.is((await customer('1')).portalOpening, 1)
    for (const token of ['pin', 'contact', 'unchosen']) assert.not.ok(await holds(token, '1'), `${token}: over once the portal closed`)
    assert.ok(await holds('unchosen', '2'), 'another portal left open still holds')

    await sessions.create({
      tokenHash: 'afresh',
      customerID: '1',
      contactID: null,
      actor: 'portal:pin',
      csrfToken: 'csrf',
      createdStamp: stamp as Stamp,
      lastSeenStamp: stamp as Stamp,
      passwordDigest: null,
      emailDigest: null,
      pinDigest: 'digest',
      portalOpenings: openingsOf([await customer('1')]),
      contacts: null,
    })
    assert.equal((await sessions.find('afresh'))!.portalOpenings, { 1: 1 })
    assert.ok(await holds('afresh', '1'), 'a sign-in after the reopening holds')
    assert.not.ok(await holds('afresh', '2'), 'not for a customer it did not sign in to')
  })

  test.run()
}
