import type { Db, Integer } from '../schema/tables.js'
import { sql } from 'kysely'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { AttemptRecord, DueWebhook, PendingDelivery, WebhookOutbox } from '../../../core/ports/webhook-outbox.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

type Marked = { id: string; attempts: number; attemptLog: readonly AttemptRecord[] }

/** The webhook outbox on the tables of migration 0014 (see `WebhookOutbox`). */
export class KyselyWebhookOutbox implements WebhookOutbox {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  private id(v: string): Integer {
    return this.dialect.encodeId(v)
  }

  async lastEventID(): Promise<string> {
    // The events committed before the webhook are numbered now, so it is not sent them later.
    await this.dialect.numberEvents(this.db)
    const row = await this.db.selectFrom('events').select((eb) => eb.fn.max('id').as('last')).executeTakeFirst()
    return row?.last == null ? '0' : String(row.last)
  }

  async enqueue(now: Stamp, limit: number): Promise<number> {
    // Only numbered events are read past a cursor: an ID, once seen, has every lower one committed (dialect/event-numbers.ts).
    await this.dialect.numberEvents(this.db)
    let queued = 0
    let hooks = this.db.selectFrom('webhooks').select(['id', 'eventTypes', 'queuedEventID']).where('active', '=', 1).orderBy('id')
    // Two workers queueing one webhook at once: the second waits here, then reads the moved cursor.
    if (this.dialect.name === 'postgres') hooks = hooks.forUpdate()
    for (const hook of await hooks.execute()) {
      const after = hook.queuedEventID == null ? 0 : hook.queuedEventID
      const events = await this.db.selectFrom('events').select(['id', 'type']).where('id', '>', after).orderBy('id').limit(limit).execute()
      if (events.length === 0) continue
      const types = new Set(JSON.parse(hook.eventTypes ?? '[]') as string[])
      const rows = events
        .filter((e) => types.size === 0 || types.has(e.type as string))
        .map((e) => ({ webhookID: hook.id, eventID: e.id, eventType: e.type, status: 'Pending', attempts: 0, attemptLog: '[]', createdStamp: now, updatedStamp: now }))
      for (let i = 0; i < rows.length; i += 1000) {
        await this.db
          .insertInto('webhook_deliveries')
          .values(rows.slice(i, i + 1000))
          .onConflict((oc) => oc.columns(['webhookID', 'eventID']).doNothing())
          .execute()
      }
      await this.db.updateTable('webhooks').set({ queuedEventID: events.at(-1)!.id }).where('id', '=', hook.id).execute()
      queued += rows.length
    }
    return queued
  }

  async dueWebhooks(now: Stamp, limit: number): Promise<DueWebhook[]> {
    const rows = await this.db
      .selectFrom('webhooks as w')
      .select(['w.id', 'w.url', 'w.secret', 'w.failingSince'])
      .where('w.active', '=', 1)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('webhook_deliveries as d').select(sql.lit(1).as('one')).whereRef('d.webhookID', '=', 'w.id').where('d.status', '=', 'Pending')),
      )
      // Only the first pending delivery ever waits for a retry: while it does, the webhook is not due.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as d')
              .select(sql.lit(1).as('one'))
              .whereRef('d.webhookID', '=', 'w.id')
              .where('d.status', '=', 'Pending')
              .where('d.nextAttemptStamp', '>', now),
          ),
        ),
      )
      .orderBy('w.id')
      .limit(limit)
      .execute()
    return rows.map((r) => ({ id: String(r.id), url: r.url as string, secret: r.secret as string, failingSince: r.failingSince }))
  }

  async pending(webhookID: string, limit: number): Promise<PendingDelivery[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.eventID')
      .select(['d.id', 'd.eventID', 'd.attempts', 'd.attemptLog', 'e.type', 'e.data', 'e.createdStamp'])
      .where('d.webhookID', '=', this.id(webhookID))
      .where('d.status', '=', 'Pending')
      .orderBy('d.eventID')
      .limit(limit)
      .execute()
    return rows.map((r) => ({
      id: String(r.id),
      eventID: String(r.eventID),
      attempts: Number(r.attempts ?? 0),
      attemptLog: JSON.parse(r.attemptLog ?? '[]') as AttemptRecord[],
      // The event as GET /events/<id> answers it; its data is stored as JSON text already.
      body: `{"id":"${String(r.eventID)}","type":${JSON.stringify(r.type)},"data":${r.data},"createdStamp":${JSON.stringify(r.createdStamp)},"updatedStamp":${JSON.stringify(r.createdStamp)}}`,
    }))
  }

  async delivered(deliveries: readonly Marked[], now: Stamp): Promise<void> {
    for (const d of deliveries) {
      const last = d.attemptLog.at(-1)
      await this.db
        .updateTable('webhook_deliveries')
        .set({ status: 'Delivered', attempts: d.attempts, attemptLog: JSON.stringify(d.attemptLog), deliveredStamp: now, updatedStamp: now, nextAttemptStamp: null, lastStatusCode: last?.statusCode ?? null, lastError: null })
        .where('id', '=', this.id(d.id))
        .where('status', '=', 'Pending')
        .execute()
    }
  }

  async failed(d: Marked, nextAttemptStamp: Stamp): Promise<void> {
    const last = d.attemptLog.at(-1)
    await this.db
      .updateTable('webhook_deliveries')
      .set({ attempts: d.attempts, attemptLog: JSON.stringify(d.attemptLog), nextAttemptStamp, updatedStamp: last?.stamp ?? nextAttemptStamp, lastStatusCode: last?.statusCode ?? null, lastError: last?.error ?? null })
      .where('id', '=', this.id(d.id))
      .execute()
  }

  async setFailing(webhookID: string, failingSince: Stamp | null): Promise<void> {
    await this.db.updateTable('webhooks').set({ failingSince }).where('id', '=', this.id(webhookID)).execute()
  }

  async giveUp(webhookID: string, failingSince: Stamp): Promise<void> {
    await this.db.updateTable('webhooks').set({ failingSince, active: 0 }).where('id', '=', this.id(webhookID)).execute()
  }

  async resume(webhookID: string): Promise<void> {
    await this.db.updateTable('webhooks').set({ failingSince: null }).where('id', '=', this.id(webhookID)).execute()
    // Only the first pending delivery waits for a retry (dueWebhooks): cleared, the webhook is due now.
    await this.db
      .updateTable('webhook_deliveries')
      .set({ nextAttemptStamp: null })
      .where('webhookID', '=', this.id(webhookID))
      .where('status', '=', 'Pending')
      .where('nextAttemptStamp', 'is not', null)
      .execute()
  }

  async backlog(): Promise<number> {
    await this.dialect.numberEvents(this.db)
    const pending = await this.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'Pending').executeTakeFirst()
    let unqueued = 0
    // Per webhook: the events after its cursor that it wants (few webhooks; each count uses the key).
    for (const hook of await this.db.selectFrom('webhooks').select(['eventTypes', 'queuedEventID']).where('active', '=', 1).execute()) {
      const types = JSON.parse(hook.eventTypes ?? '[]') as string[]
      let q = this.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).where('id', '>', hook.queuedEventID ?? 0)
      if (types.length) q = q.where('type', 'in', types)
      unqueued += Number((await q.executeTakeFirst())?.n ?? 0)
    }
    return Number(pending?.n ?? 0) + unqueued
  }
}
