import { sql } from 'kysely'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { BillType, DeliveryChannel, DeliveryPurpose } from '../../../core/presets/delivery-lists.js'
import type { ClaimedDelivery, ContactCopy, InvoiceOutbox, NewDelivery } from '../../../core/ports/invoice-outbox.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import { columnType } from '../schema/columns.js'

const CHUNK = 500
/**
 * Customers whose contacts one pair of reads takes: an approval's batch is 2,000 (approve-drafts.ts),
 * read in one pair rather than four, as a run's batch of a few hundred is (bench/review-run.ts).
 */
const CONTACTS_CHUNK = 2_000

/** The invoice deliveries outbox on migration 0022's table (see `InvoiceOutbox`). */
export class KyselyInvoiceOutbox implements InvoiceOutbox {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async contactCopies(customerIDs: readonly string[]): Promise<ContactCopy[]> {
    const out: ContactCopy[] = []
    for (let i = 0; i < customerIDs.length; i += CONTACTS_CHUNK) {
      const ids = customerIDs.slice(i, i + CONTACTS_CHUNK).map((id) => this.dialect.encodeId(id))
      const direct = await this.db
        .selectFrom('customer_contacts as c')
        .select(['c.id', 'c.customerID', 'c.email', 'c.emailBillType', 'c.copyCorrespondenceTypeIDs'])
        .where('c.customerID', 'in', ids)
        .where('c.email', 'is not', null)
        .where((eb) => eb.or([eb('c.emailBillType', 'is not', null), eb('c.copyCorrespondenceTypeIDs', 'is not', null)]))
        .orderBy('c.id')
        .execute()
      const shared = await this.db
        .selectFrom('customer_shared_contacts as s')
        .innerJoin('customer_contacts as c', 'c.id', 's.contactID')
        .select(['c.id', 's.customerID', 'c.email', 'c.emailBillType', 'c.copyCorrespondenceTypeIDs'])
        .where('s.customerID', 'in', ids)
        .where('c.email', 'is not', null)
        .where((eb) => eb.or([eb('c.emailBillType', 'is not', null), eb('c.copyCorrespondenceTypeIDs', 'is not', null)]))
        .orderBy('c.id')
        .execute()
      for (const r of [...direct, ...shared]) {
        const correspondence = namesOf(r.copyCorrespondenceTypeIDs)
        out.push({ customerID: String(r.customerID), contactID: String(r.id), email: r.email as string, emailBillType: r.emailBillType as string | null, correspondence })
      }
    }
    return out
  }

  async record(deliveries: readonly NewDelivery[], now: Stamp): Promise<void> {
    // A billing run records one or more a customer: the bulk insert of the ledger's rows, not
    // an object per row through the query builder.
    const d = this.dialect
    const rows = deliveries.map((x) => [
      d.encodeId(x.invoiceID),
      d.encodeId(x.customerID),
      x.contactID === null ? null : d.encodeId(x.contactID),
      x.channel,
      x.recipient,
      x.billType,
      x.status,
      0,
      now,
      now,
      x.purpose ?? 'invoice',
    ])
    await d.bulkInsert(this.db, 'invoice_deliveries', this.columns(), rows)
  }

  private columns() {
    const byName = catalogue.invoiceDeliveries.byName
    return ['invoiceID', 'customerID', 'contactID', 'channel', 'recipient', 'billType', 'status', 'attempts', 'createdStamp', 'updatedStamp', 'purpose'].map((name) => ({
      name,
      type: columnType(byName.get(name)!, this.dialect),
    }))
  }

  async claim(now: Stamp, leaseUntil: Stamp, limit: number): Promise<ClaimedDelivery[]> {
    const due = this.db
      .selectFrom('invoice_deliveries')
      .select('id')
      .where('status', '=', 'Pending')
      .where((eb) => eb.or([eb('nextAttemptStamp', 'is', null), eb('nextAttemptStamp', '<=', now)]))
      .orderBy('id')
      .limit(limit)
    // Postgres: the due rows are locked and read (two workers take different rows), then updated
    // by ID. As a subquery of the UPDATE, Postgres ran the locking SELECT again for rows it
    // rechecked and claimed every due row, not `limit` (a test claimed 30 of 30 with a limit of
    // 10). SQLite: one statement, which its single writer runs whole (a read then a write would
    // fail on a snapshot another process's claim made stale).
    const ids = this.dialect.rowLocks ? (await due.forUpdate().skipLocked().execute()).map((r) => r.id) : null
    if (ids?.length === 0) return []
    const rows = await this.db
      .updateTable('invoice_deliveries')
      // One accepted by the server but not recorded is claimed only to be recorded: no attempt counted.
      .set((eb) => ({ attempts: eb.case().when('messageID', 'is', null).then(eb('attempts', '+', 1)).else(eb.ref('attempts')).end(), nextAttemptStamp: leaseUntil, updatedStamp: now, firstAttemptStamp: eb.fn.coalesce('firstAttemptStamp', eb.val(now)) }))
      .where('id', 'in', ids ?? due)
      // Checked again on the rows: another connection's claim committed since the read is not taken twice.
      .where('status', '=', 'Pending')
      .where((eb) => eb.or([eb('nextAttemptStamp', 'is', null), eb('nextAttemptStamp', '<=', now)]))
      .returning(['id', 'invoiceID', 'customerID', 'contactID', 'channel', 'recipient', 'billType', 'attempts', 'createdStamp', 'firstAttemptStamp', 'purpose', 'messageID'])
      .execute()
    return rows
      .map((r) => ({
        id: String(r.id),
        invoiceID: String(r.invoiceID),
        customerID: String(r.customerID),
        contactID: r.contactID === null ? null : String(r.contactID),
        channel: r.channel as DeliveryChannel,
        recipient: r.recipient,
        billType: r.billType as BillType,
        attempts: Number(r.attempts),
        createdStamp: r.createdStamp as Stamp,
        firstAttemptStamp: (r.firstAttemptStamp ?? now) as Stamp,
        // Rows from before purposes existed are invoices.
        purpose: (r.purpose ?? 'invoice') as DeliveryPurpose,
        acceptedMessageID: r.messageID ?? null,
      }))
      .sort((a, b) => Number(a.id) - Number(b.id))
  }

  async release(ids: readonly string[], now: Stamp): Promise<void> {
    if (ids.length === 0) return
    await this.db
      .updateTable('invoice_deliveries')
      .set((eb) => ({ attempts: eb.case().when('messageID', 'is', null).then(eb('attempts', '-', 1)).else(eb.ref('attempts')).end(), nextAttemptStamp: null, updatedStamp: now }))
      .where('id', 'in', ids.map((id) => this.dialect.encodeId(id)))
      .where('status', '=', 'Pending')
      .execute()
  }

  async sent(id: string, now: Stamp, messageID: string | null, billType?: BillType): Promise<boolean> {
    const r = await this.db
      .updateTable('invoice_deliveries')
      .set({ status: 'Sent', sentStamp: now, messageID, error: null, nextAttemptStamp: null, updatedStamp: now, ...(billType ? { billType } : {}) })
      .where('id', '=', this.dialect.encodeId(id))
      .where('status', '=', 'Pending')
      .executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  async accepted(id: string, now: Stamp, messageID: string, billType: BillType | undefined, error: string, nextAttempt: Stamp): Promise<void> {
    await this.db
      .updateTable('invoice_deliveries')
      .set({ messageID, error, nextAttemptStamp: nextAttempt, updatedStamp: now, ...(billType ? { billType } : {}) })
      .where('id', '=', this.dialect.encodeId(id))
      .where('status', '=', 'Pending')
      .execute()
  }

  async skipped(id: string, now: Stamp): Promise<void> {
    await this.db
      .updateTable('invoice_deliveries')
      .set({ status: 'Skipped', error: null, nextAttemptStamp: null, updatedStamp: now })
      .where('id', '=', this.dialect.encodeId(id))
      .where('status', '=', 'Pending')
      .execute()
  }

  async attemptFailed(id: string, error: string, now: Stamp, nextAttempt: Stamp | null): Promise<void> {
    await this.db
      .updateTable('invoice_deliveries')
      .set({ error, updatedStamp: now, nextAttemptStamp: nextAttempt, ...(nextAttempt === null ? { status: 'Failed' as const } : {}) })
      .where('id', '=', this.dialect.encodeId(id))
      .where('status', '=', 'Pending')
      .execute()
  }

  async markInvoiceSent(invoiceID: string, sentDate: string): Promise<boolean> {
    const r = await this.db
      .updateTable('invoices')
      .set({ sentDate: sql`${sentDate}` })
      .where('id', '=', this.dialect.encodeId(invoiceID))
      .where('sentDate', 'is', null)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }
}

/** A Preset Value(s) column's names; a value not written by the catalogue (a hand-made row) names none rather than failing the invoice it is read for. */
function namesOf(raw: unknown): string[] {
  if (typeof raw !== 'string') return []
  try {
    const names: unknown = JSON.parse(raw)
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : []
  } catch {
    return []
  }
}
