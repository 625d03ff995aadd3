import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import { loginKey, type LoginKind } from '../../../core/portal/portal-login.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

const PAGE = 5000

/** Each login column, its table and its kind of login. */
const LOGINS = [
  { resource: 'customers', table: 'customers', column: 'accountNumber', kind: 'account' },
  { resource: 'customerContacts', table: 'customer_contacts', column: 'email', kind: 'email' },
] as const satisfies readonly { resource: keyof typeof catalogue; table: string; column: string; kind: LoginKind }[]

/**
 * Portal sign-in compares logins as `loginKey` puts them (contract 14.3): trimmed and NFC, an
 * email also lower-cased, on both sides. A login stored with a space around it, another case or
 * NFD could not sign in before, whatever was typed. Each login keeps that key beside it
 * (`accountNumberKey`, `emailKey`, written with it on create and update), indexed, so sign-in
 * finds it without reading every row; stored rows get theirs here, and a restore of an archive
 * from before this migration gets them the same way (import-snapshot.ts).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0085-login-keys']
  await addColumns(db, dialect, catalogue.customers, [...added.customers!])
  await addColumns(db, dialect, catalogue.customerContacts, [...added.customerContacts!])
  await fillLoginKeys(db)
  for (const l of LOGINS) await db.schema.createIndex(`${l.table}_${l.column}Key_idx`).on(l.table).column(`${l.column}Key`).execute()
}

/** Writes every stored login's key (an empty one: null, as `withDerived` writes it). */
export async function fillLoginKeys(db: AnyDb): Promise<void> {
  for (const l of LOGINS) {
    let after: unknown = 0
    for (;;) {
      const rows = await db.selectFrom(l.table).select(['id', l.column]).where('id', '>', after).where(l.column, 'is not', null).orderBy('id').limit(PAGE).execute()
      for (const r of rows) {
        const key = typeof r[l.column] === 'string' ? loginKey(l.kind, r[l.column]) : ''
        if (key !== '') await db.updateTable(l.table).set({ [`${l.column}Key`]: key }).where('id', '=', r.id).execute()
      }
      if (rows.length < PAGE) break
      after = rows.at(-1)!.id
    }
  }
}
