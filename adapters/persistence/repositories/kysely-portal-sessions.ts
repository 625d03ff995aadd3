import type { Stamp } from '../../../core/dates/stamp.js'
import type { ContactSignIn, PortalSession, PortalSessions } from '../../../core/ports/portal-sessions.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'

/** Portal sessions and failed sign-ins as rows; the token's digest is the key, never the token. */
export class KyselyPortalSessions implements PortalSessions {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async create(session: PortalSession): Promise<void> {
    const { contacts, ...row } = session
    await this.db
      .insertInto('portal_sessions')
      .values({ ...row, portalOpenings: storedOpenings(session) })
      .execute()
  }

  async find(tokenHash: string): Promise<PortalSession | undefined> {
    const row = await this.db.selectFrom('portal_sessions').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst()
    if (!row) return undefined
    const { createdStamp, lastSeenStamp, passwordDigest, emailDigest, pinDigest, portalOpenings } = row
    return {
      ...row,
      createdStamp: createdStamp as Stamp,
      lastSeenStamp: lastSeenStamp as Stamp,
      passwordDigest: passwordDigest ?? null,
      emailDigest: emailDigest ?? null,
      pinDigest: pinDigest ?? null,
      ...readOpenings(portalOpenings),
    }
  }

  async touch(tokenHash: string, lastSeenStamp: Stamp, customerID?: string, contact?: ContactSignIn): Promise<void> {
    await this.db
      .updateTable('portal_sessions')
      .set({ lastSeenStamp, ...(customerID ? { customerID } : {}), ...(customerID && contact ? contact : {}) })
      .where('tokenHash', '=', tokenHash)
      .execute()
  }

  async remove(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('portal_sessions').where('tokenHash', '=', tokenHash).execute()
  }

  async removeIdleBefore(stamp: Stamp): Promise<number> {
    const r = await this.db.deleteFrom('portal_sessions').where('lastSeenStamp', '<', stamp).executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  async startAttempt(login: string, stamp: Stamp, since: Stamp, locked: (failures: readonly Stamp[]) => boolean): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      // Postgres: an advisory lock per login; SQLite: the transaction's write lock, taken at its start.
      await this.dialect.lockKey(trx, `portal-login:${login}`)
      const rows = await trx
        .selectFrom('portal_login_failures')
        .select('stamp')
        .where('login', '=', login)
        .where('stamp', '>=', since)
        .orderBy('stamp')
        .orderBy('id')
        .execute()
      if (locked(rows.map((r) => r.stamp as Stamp))) return null
      const row = await trx.insertInto('portal_login_failures').values({ login, stamp }).returning('id').executeTakeFirstOrThrow()
      return String(this.dialect.decodeBigint(row.id))
    })
  }

  async forgetAttempt(attempt: string): Promise<void> {
    await this.db.deleteFrom('portal_login_failures').where('id', '=', this.dialect.encodeId(attempt)).execute()
  }

  async removeFailuresBefore(stamp: Stamp): Promise<number> {
    const r = await this.db.deleteFrom('portal_login_failures').where('stamp', '<', stamp).executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  async customersOfContact(contactID: string): Promise<string[]> {
    const id = this.dialect.encodeId(contactID)
    const own = await this.db.selectFrom('customer_contacts').select('customerID').where('id', '=', id).executeTakeFirst()
    const shared = await this.db.selectFrom('customer_shared_contacts').select('customerID').where('contactID', '=', id).execute()
    const ids = [own?.customerID, ...shared.map((r) => r.customerID)].filter((x) => x !== null && x !== undefined).map((x) => String(x))
    return [...new Set(ids)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
  }
}

/**
 * A session's `contacts` (several contacts signed in at once) are kept in its `portalOpenings`
 * JSON, under a key no customer ID takes (IDs are digits): both are by customer, and read and
 * written together. A session of one contact or a PIN stores its openings alone, as before.
 */
const CONTACTS = 'contacts'

function storedOpenings(session: PortalSession): string | null {
  if (!session.contacts) return session.portalOpenings && JSON.stringify(session.portalOpenings)
  return JSON.stringify({ ...session.portalOpenings, [CONTACTS]: session.contacts })
}

function readOpenings(stored: string | null): Pick<PortalSession, 'portalOpenings' | 'contacts'> {
  if (!stored) return { portalOpenings: null, contacts: null }
  const { [CONTACTS]: contacts, ...openings } = JSON.parse(stored) as Record<string, unknown>
  return { portalOpenings: openings as Record<string, number>, contacts: (contacts as Record<string, ContactSignIn> | undefined) ?? null }
}
