import type { Db, LifecycleEventsTable } from '../schema/tables.js'
import type { Selectable } from 'kysely'
import type { IgnoreTrafficEntry } from '../../../core/ports/lifecycle-log.js'
import type { LifecycleEvent } from '../../../core/lifecycle/events.js'
import { parseItemKey, type ItemKey } from '../../../core/lifecycle/levels.js'
import type { LifecycleLog, StoredEvent, StoredIgnoreTraffic } from '../../../core/ports/lifecycle-log.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

type EventRow = Selectable<LifecycleEventsTable>

/** Number IDs per statement, well under every dialect's parameter limit. */
const CHUNK = 1000

const toEvent = (r: EventRow): StoredEvent => ({
  customerID: String(r.customerID),
  level: r.level,
  itemId: String(r.itemId),
  action: r.action,
  date: r.date,
  stamp: r.stamp,
})

export class KyselyLifecycleLog implements LifecycleLog {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  private id(v: string) {
    return this.dialect.encodeId(v)
  }

  async append(events: readonly StoredEvent[]): Promise<void> {
    if (!events.length) return
    await this.db
      .insertInto('lifecycle_events')
      .values(events.map((e) => ({ ...e, customerID: this.id(e.customerID), itemId: this.id(e.itemId) })))
      .execute()
  }

  async eventsOf(items: readonly ItemKey[]): Promise<LifecycleEvent[]> {
    if (!items.length) return []
    const keys = items.map((k) => parseItemKey(k)!)
    const rows = await this.db
      .selectFrom('lifecycle_events')
      .selectAll()
      .where((eb) => eb.or(keys.map((k) => eb.and([eb('level', '=', k.level), eb('itemId', '=', this.id(k.id))]))))
      .orderBy('id')
      .execute()
    return rows.map(toEvent)
  }

  async eventsOfCustomersBetween(firstCustomerID: string, lastCustomerID: string): Promise<StoredEvent[]> {
    // A range, not a list of a page's IDs: one seek, where SQLite looked each of hundreds of IDs up.
    const rows = await this.db
      .selectFrom('lifecycle_events')
      .selectAll()
      .where('customerID', '>=', this.id(firstCustomerID))
      .where('customerID', '<=', this.id(lastCustomerID))
      .orderBy('id')
      .execute()
    return rows.map(toEvent)
  }

  async addIgnoreTraffic(entries: readonly (IgnoreTrafficEntry & { customerID: string })[]): Promise<void> {
    if (!entries.length) return
    await this.db
      .insertInto('ignore_traffic')
      .values(entries.map((e) => ({ ...e, customerID: this.id(e.customerID), numberID: this.id(e.numberID) })))
      .execute()
  }

  async endIgnoreTraffic(numberIDs: readonly string[], date: DateOnly): Promise<void> {
    // A customer's reinstate may bring back thousands of numbers: an IN list of each chunk.
    for (let at = 0; at < numberIDs.length; at += CHUNK) {
      await this.db
        .updateTable('ignore_traffic')
        .set({ reinstatedDate: date })
        .where('numberID', 'in', numberIDs.slice(at, at + CHUNK).map((id) => this.id(id)))
        .where('reinstatedDate', 'is', null)
        .execute()
    }
  }

  async ignoreTraffic(): Promise<StoredIgnoreTraffic[]> {
    const rows = await this.db.selectFrom('ignore_traffic').selectAll().orderBy('id').execute()
    return rows.map((r) => ({
      customerID: String(r.customerID),
      numberID: String(r.numberID),
      number: r.number,
      type: r.type,
      fromDate: r.fromDate,
      reinstatedDate: r.reinstatedDate,
    }))
  }

  async removeCustomer(customerID: string): Promise<void> {
    await this.db.deleteFrom('lifecycle_events').where('customerID', '=', this.id(customerID)).execute()
    await this.db.deleteFrom('ignore_traffic').where('customerID', '=', this.id(customerID)).execute()
  }
}
