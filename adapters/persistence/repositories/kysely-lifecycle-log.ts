import type { Kysely } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { IgnoreTrafficEntry } from '../../../core/lifecycle/cascade.js'
import type { LifecycleAction } from '../../../core/lifecycle/actions.js'
import type { LifecycleEvent } from '../../../core/lifecycle/events.js'
import { parseItemKey, type ItemKey, type Level } from '../../../core/lifecycle/levels.js'
import type { LifecycleLog, StoredEvent } from '../../../core/ports/lifecycle-log.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

type EventRow = { customerID: unknown; level: string; itemId: unknown; action: string; date: string; stamp: string }

const toEvent = (r: EventRow): StoredEvent => ({
  customerID: String(r.customerID),
  level: r.level as Level,
  itemId: String(r.itemId),
  action: r.action as LifecycleAction,
  date: r.date as DateOnly,
  stamp: r.stamp as Stamp,
})

export class KyselyLifecycleLog implements LifecycleLog {
  constructor(
    private readonly db: Kysely<any>,
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
    return rows.map((r) => toEvent(r as EventRow))
  }

  async eventsOfCustomers(customerIDs: readonly string[]): Promise<StoredEvent[]> {
    if (!customerIDs.length) return []
    const rows = await this.db
      .selectFrom('lifecycle_events')
      .selectAll()
      .where('customerID', 'in', customerIDs.map((c) => this.id(c)))
      .orderBy('id')
      .execute()
    return rows.map((r) => toEvent(r as EventRow))
  }

  async addIgnoreTraffic(entries: readonly (IgnoreTrafficEntry & { customerID: string })[]): Promise<void> {
    if (!entries.length) return
    await this.db
      .insertInto('ignore_traffic')
      .values(entries.map((e) => ({ ...e, customerID: this.id(e.customerID), numberID: this.id(e.numberID) })))
      .execute()
  }

  async ignoreTraffic(): Promise<(IgnoreTrafficEntry & { customerID: string })[]> {
    const rows = await this.db.selectFrom('ignore_traffic').selectAll().orderBy('id').execute()
    return rows.map((r) => ({
      customerID: String(r.customerID),
      numberID: String(r.numberID),
      number: r.number as string | null,
      type: r.type as string,
      fromDate: r.fromDate as DateOnly,
    }))
  }

  async removeCustomer(customerID: string): Promise<void> {
    await this.db.deleteFrom('lifecycle_events').where('customerID', '=', this.id(customerID)).execute()
    await this.db.deleteFrom('ignore_traffic').where('customerID', '=', this.id(customerID)).execute()
  }
}
