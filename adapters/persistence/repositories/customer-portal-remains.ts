import { loginKey, loginOf } from '../../../core/portal/portal-login.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'

/**
 * Removes a purged customer's portal sessions and failed sign-ins (contract 5.6, 14.3), and
 * those of its direct contacts, which go with it: sessions looking at the customer or signed in
 * as one of them, and failures under its account number or their emails. A login another
 * customer or contact still signs in with keeps its failures: they may lock it yet. Called
 * before the contacts go, since they are found through them.
 */
export async function removePortalRemains(db: Db, dialect: DatabaseDialect, customerID: string): Promise<void> {
  const id = dialect.encodeId(customerID)
  const customer = await db.selectFrom('customers').select('accountNumber').where('id', '=', id).executeTakeFirst()
  const contacts = await db.selectFrom('customer_contacts').select(['id', 'email']).where('customerID', '=', id).execute()
  const contactIDs = contacts.map((c) => String(dialect.decodeBigint(c.id)))
  await db
    .deleteFrom('portal_sessions')
    .where((eb) => eb.or([eb('customerID', '=', customerID), ...(contactIDs.length ? [eb('contactID', 'in', contactIDs)] : [])]))
    .execute()

  // Keyed as sign-in keys them (`loginKey`, migration 0085): another login with the same key is the same login.
  const accounts = customer?.accountNumber ? [loginKey('account', customer.accountNumber)].filter((k) => k !== '') : []
  const emails = [...new Set(contacts.flatMap((c) => (c.email ? [loginKey('email', c.email)] : [])))].filter((k) => k !== '')
  const keptAccounts = accounts.length === 0 ? [] : await db.selectFrom('customers').select('accountNumberKey as login').where('id', '!=', id).where('accountNumberKey', 'in', accounts).execute()
  const keptEmails =
    emails.length === 0
      ? []
      : await db
          .selectFrom('customer_contacts')
          .select('emailKey as login')
          .where((eb) => eb.or([eb('customerID', 'is', null), eb('customerID', '!=', id)]))
          .where('emailKey', 'in', emails)
          .execute()
  const kept = new Set([...keptAccounts.map((r) => `account:${r.login}`), ...keptEmails.map((r) => `email:${r.login}`)])
  const logins = [
    ...accounts.map((accountNumber) => loginOf({ kind: 'pin', accountNumber, pin: '' })),
    ...emails.map((email) => loginOf({ kind: 'password', email, password: '' })),
  ].filter((login) => !kept.has(login))
  if (logins.length > 0) await db.deleteFrom('portal_login_failures').where('login', 'in', logins).execute()
}
