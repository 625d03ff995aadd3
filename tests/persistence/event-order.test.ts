import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogue } from '../../core/fields/catalogue.js'
import { createItem } from '../../core/resources/resources.js'
import { enqueueEvents } from '../../core/webhooks/deliver.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 12: `GET /events/?idAfter=` lets a consumer poll in order, and each webhook gets each
 * event at least once, in event order. On Postgres transactions commit in any order, so an event
 * is numbered only once committed, after every event committed before it
 * (adapters/persistence/dialect/event-numbers.ts): a transaction that appended its event first
 * and commits last must not leave that event below an ID a poller or the webhook queue has passed.
 */

interface World {
  h: Harness
  hook: string
}

type Event = { id: string; type: string; data: { accountNumber?: string } }

/** A poller as a consumer writes one: each page after the last ID it has seen. */
function poller(h: Harness) {
  const seen: Event[] = []
  return {
    seen,
    async poll(): Promise<Event[]> {
      const after = seen.at(-1)?.id
      const page = (await h.request('GET', `/events?limit=1000${after ? `&idAfter=${after}` : ''}`)).body as Event[]
      seen.push(...page)
      return page
    },
  }
}

const accounts = (events: readonly Event[]) => events.map((e) => e.data.accountNumber)
const increasing = (ids: readonly string[]) => ids.every((id, i) => i === 0 || BigInt(id) > BigInt(ids[i - 1]))

/** Creates a customer in a transaction that stays open until `open` settles: its event is appended, not committed. */
function createHeldOpen(h: Harness, accountNumber: string, open: Promise<unknown>): Promise<void> {
  const ctx = h.platform.context
  return ctx.store.transaction(async (store) => {
    await createItem({ ...ctx, store }, catalogue.customers, { accountNumber })
    await open
  })
}

/** Every event the webhook has been queued, in its deliveries' order, against every event there is. */
async function queuedAndAll(w: World): Promise<{ queued: string[]; all: string[] }> {
  await enqueueEvents(w.h.platform.context as never)
  const deliveries = (await w.h.request('GET', `/webhooks/${w.hook}/deliveries?limit=1000`)).body as { eventID: string }[]
  const all = (await w.h.request('GET', '/events?limit=1000')).body as Event[]
  return { queued: deliveries.map((d) => d.eventID).sort((a, b) => Number(a) - Number(b)), all: all.map((e) => e.id) }
}

for (const target of activeTargets()) {
  const test = suite<World>(`events in commit order: pollers and webhooks miss none [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { config: { allowPrivateWebhooks: true } })
    // Created first: every event after it is queued for it.
    ctx.hook = (await ctx.h.request('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', eventTypes: [] })).body.id
  })
  test.after(async (ctx) => ctx.h.close())
  /** Two connections committing out of order: Postgres only (SQLite has one writer). */
  const onPostgres = (name: string, check: Parameters<typeof test>[1]) => {
    if (target === 'postgres') test(name, check)
  }

  onPostgres('an event whose transaction commits after a later one is still polled and queued, in order', async (w) => {
    const { h } = w
    const consumer = poller(h)
    await consumer.poll()
    const start = consumer.seen.length
    await h.request('POST', '/customers', { accountNumber: 'ORDER-FIRST' })
    await consumer.poll()
    await enqueueEvents(h.platform.context as never)
    let release!: () => void
    const slow = createHeldOpen(h, 'ORDER-SLOW', new Promise<void>((r) => (release = r)))
    // The slow transaction's event is written (its customer exists to it) before the fast one starts.
    await new Promise((r) => setTimeout(r, 200))
    assert.is((await h.request('POST', '/customers', { accountNumber: 'ORDER-FAST' })).status, 201)
    assert.equal(accounts(await consumer.poll()), ['ORDER-FAST'], 'the committed event is served at once')
    await enqueueEvents(h.platform.context as never)
    release()
    await slow
    assert.equal(accounts(await consumer.poll()), ['ORDER-SLOW'], 'the late commit comes after it, not below the cursor')
    assert.equal(accounts(consumer.seen.slice(start)), ['ORDER-FIRST', 'ORDER-FAST', 'ORDER-SLOW'])
    assert.ok(increasing(consumer.seen.map((e) => e.id)))
    const { queued, all } = await queuedAndAll(w)
    assert.equal(consumer.seen.map((e) => e.id), all, 'the poller has every event')
    assert.equal(queued, all, 'the webhook is queued every event')
  })

  onPostgres('many transactions committing in any order while a poller and the webhook queue read: every event once, IDs increasing', async (w) => {
    const { h } = w
    const consumer = poller(h)
    await consumer.poll()
    const before = new Set(consumer.seen.map((e) => e.id))
    const wanted = Array.from({ length: 24 }, (_, i) => `MANY-${i}`)
    let writing = true
    const reading = (async () => {
      while (writing) {
        await consumer.poll()
        await enqueueEvents(h.platform.context as never)
        await new Promise((r) => setTimeout(r, 3))
      }
    })()
    // Each holds its event open for a while, so commits come in another order than the appends.
    await Promise.all(
      wanted.map(async (accountNumber, i) => {
        await new Promise((r) => setTimeout(r, (i * 7) % 40))
        await createHeldOpen(h, accountNumber, new Promise((r) => setTimeout(r, ((i * 37) % 11) * 8)))
      }),
    )
    writing = false
    await reading
    await consumer.poll()
    const fresh = consumer.seen.filter((e) => !before.has(e.id))
    assert.equal([...accounts(fresh)].sort(), [...wanted].sort(), 'each event once')
    assert.ok(increasing(consumer.seen.map((e) => e.id)), 'IDs increase as served')
    const { queued, all } = await queuedAndAll(w)
    assert.equal(consumer.seen.map((e) => e.id), all, 'the poller has every event')
    assert.equal(queued, all, 'the webhook is queued every event')
  })

  test("events left unnumbered (a Postgres archive's, restored) are served after the last, in the order written", async ({ h }) => {
    const consumer = poller(h)
    await h.request('POST', '/customers', { accountNumber: 'BEFORE-RESTORED' })
    await consumer.poll()
    const stamp = '2026-01-15T10:00:00.000Z'
    const row = (accountNumber: string) => ({ type: 'customer.created', data: JSON.stringify({ accountNumber }), createdStamp: stamp, updatedStamp: stamp })
    await h.platform.database.db.insertInto('unnumbered_events').values([row('RESTORED-1'), row('RESTORED-2')]).execute()
    assert.equal(accounts(await consumer.poll()), ['RESTORED-1', 'RESTORED-2'])
    assert.ok(increasing(consumer.seen.map((e) => e.id)))
    const waiting = await sql<{ n: number }>`select count(*) as n from unnumbered_events`.execute(h.platform.database.db)
    assert.is(Number(waiting.rows[0].n), 0)
  })

  test.run()
}
