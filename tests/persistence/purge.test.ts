import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { purgeCustomer, purgeDueCustomers } from '../../core/resources/removals.js'
import { openHarness, type Harness } from '../support/harness.js'
import { invoiceWorld } from '../support/invoice-world.js'
import { activeTargets } from '../support/targets.js'

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`customer purge [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('a purge removes the customer and everything linked in one transaction; shared contacts stay, unlinked', async ({ h }) => {
    const post = async (path: string, body: object = {}) => (await h.request('POST', path, body)).body.id as string
    const keep = await post('/customers', { accountNumber: 'KEEP' })
    const keepNumber = await post(`/customers/${keep}/numbers`, { number: '1' })
    const gone = await post('/customers', { accountNumber: 'GONE' })
    const number = await post(`/customers/${gone}/numbers`, { number: '2' })
    const service = await post(`/customers/${gone}/services`)
    const features = [await post(`/customers/${gone}/features`), await post(`/numbers/${number}/features`), await post(`/services/${service}/features`)]
    const direct = await post(`/customers/${gone}/customerContacts`)
    const shared = await post('/customerContacts', { companyName: 'Shared' })
    await h.request('POST', `/customers/${gone}?action=addSharedContact`, { sharedContactID: shared })
    await h.request('POST', `/customers/${keep}?action=addSharedContact`, { sharedContactID: shared })

    assert.ok(await purgeCustomer(h.platform.context, gone))
    for (const path of [`/customers/${gone}`, `/numbers/${number}`, `/services/${service}`, `/customerContacts/${direct}`, ...features.map((f) => `/features/${f}`)]) {
      assert.is((await h.request('GET', path)).status, 404, path)
    }
    assert.is((await h.request('GET', `/customerContacts/${shared}`)).status, 200, 'the shared contact stays')
    assert.equal((await h.request('GET', `/customers/${keep}/customerContacts`)).body.map((c: any) => c.id), [shared])
    assert.is((await h.request('GET', `/numbers/${keepNumber}`)).status, 200)
    assert.not.ok(await purgeCustomer(h.platform.context, gone), 'a second purge finds nothing')
  })

  test("the purge job takes the customer's invoices with their deliveries, ledger rows and calls, and records one delete as system", async ({ h }) => {
    const job = async (name: string) => {
      const failed: unknown[] = []
      const scheduler = h.platform.createScheduler({ onJobEnd: (e) => e.outcome === 'failed' && failed.push(e.error) })
      await scheduler.runNow(name)
      await scheduler.stop()
      assert.equal(failed, [], name)
    }
    const w = await invoiceWorld(h, () => job('billing-poll'), { numbers: 1, calls: 3, payment: '10.00', accountNumber: 'PURGE-INV', customer: { email: 'gone@example.com' } })
    const c = w.customerID
    const { db, dialect } = h.platform.database
    const id = (v: string) => dialect.encodeId(v)
    const invoices = [id(w.invoice.id)]
    const features = (await h.request('GET', `/customers/${c}/features?includeNumbers=true&includeServices=true`)).body.map((f: any) => id(f.id))
    // What the customer's rows are found by, table by table (contract 5.6's "every linked resource").
    const left = async () => {
      const counts: Record<string, number> = {}
      const count = async (table: string, column: string, values: unknown[]) => {
        const row = await (db as any).selectFrom(table).select((eb: any) => eb.fn.countAll().as('n')).where(column, 'in', values).executeTakeFirst()
        counts[table] = Number(row.n)
      }
      for (const table of ['invoices', 'invoice_deliveries', 'transactions', 'calls', 'invoice_allocations', 'held_credits', 'commission_terms', 'features', 'numbers']) await count(table, 'customerID', [id(c)])
      await count('invoice_journal_lines', 'invoiceID', invoices)
      await count('ledger_reconciled', 'featureID', features)
      return counts
    }
    const before = await left()
    for (const table of ['invoices', 'invoice_deliveries', 'transactions', 'calls', 'invoice_allocations', 'invoice_journal_lines', 'ledger_reconciled']) assert.ok(before[table] > 0, `${table} has rows to purge`)
    const others = (await (db as any).selectFrom('transactions').select((eb: any) => eb.fn.countAll().as('n')).where('customerID', '!=', id(c)).executeTakeFirst()).n

    const start = h.clock.now()
    const last = (await h.request('GET', '/events?limit=1000')).body.at(-1).id
    await h.request('DELETE', `/customers/${c}`)
    h.clock.advanceMs(31 * 86_400_000)
    await job('purge-customers')
    assert.equal(Object.values(await left()), Object.values(before).map(() => 0), JSON.stringify(await left()))
    assert.is((await h.request('GET', `/invoices/${w.invoice.id}`)).status, 404)
    assert.is(Number((await (db as any).selectFrom('transactions').select((eb: any) => eb.fn.countAll().as('n')).where('customerID', '!=', id(c)).executeTakeFirst()).n), Number(others), "other customers' rows stay")
    const purged = (await h.request('GET', `/history?customerID=${c}&resource=customers`)).body.at(-1)
    assert.equal([purged.action, purged.apiKeyName, purged.resourceID, purged.changes.accountNumber], ['delete', 'system', c, ['PURGE-INV', null]])
    assert.is(purged.changes.email, undefined, 'the purge writes no personal data back into history')
    const events = (await h.request('GET', `/events?idAfter=${last}`)).body
    assert.equal(
      events.map((e: any) => [e.type, e.data.id, e.data.email ?? null]),
      [['customer.deletion_scheduled', c, 'gone@example.com'], ['customer.deleted', c, null]],
      'the DELETE announces the scheduling, the purge the one deletion',
    )
    // Nothing of it is left to send, so the delivery job has nothing to fail on.
    await job('invoice-delivery')
    h.clock.set(start)
  })

  test('DELETE records and announces scheduleDeletion with the customer as GET answers it; only the purge is a delete', async ({ h }) => {
    const start = h.clock.now()
    const c = (await h.request('POST', '/customers', { accountNumber: 'SCHED-DEL', email: 'sched@example.com' })).body.id as string
    const last = (await h.request('GET', '/events?limit=1000')).body.at(-1).id
    assert.is((await h.request('DELETE', `/customers/${c}`)).status, 200)
    assert.is((await h.request('DELETE', `/customers/${c}`)).status, 200, 'a second DELETE changes nothing')
    const shown = (await h.request('GET', `/customers/${c}`)).body
    const scheduled = (await h.request('GET', `/events?idAfter=${last}`)).body
    assert.equal(scheduled.map((e: any) => e.type), ['customer.deletion_scheduled'], 'not customer.deleted while the customer is there')
    assert.equal(scheduled[0].data, shown)
    const entries = (await h.request('GET', `/customers/${c}/history`)).body
    assert.equal(entries.map((e: any) => e.action), ['create', 'scheduleDeletion'])
    assert.equal(entries[1].changes.deletionScheduledDate, [null, shown.deletionScheduledDate])
    h.clock.advanceMs(31 * 86_400_000)
    assert.equal(await purgeDueCustomers(h.platform.context), { purged: 1 })
    const purged = (await h.request('GET', `/events?idAfter=${scheduled[0].id}`)).body
    assert.equal(purged.map((e: any) => [e.type, e.data.id]), [['customer.deleted', c]], 'one deletion event, from the purge')
    const history = (await h.request('GET', `/history?customerID=${c}&resource=customers`)).body
    assert.equal(history.map((e: any) => e.action), ['create', 'scheduleDeletion', 'delete'])
    h.clock.set(start)
  })

  test("a purged customer's records keyed by their carrier's ID are new when sent again, as on every database (migration 0087's claims go with the calls)", async ({ h }) => {
    const usage = (body: string) => h.request('POST', '/usageFiles', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    const file = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID\n01632960777,01632960001,2024-03-05T10:00:00Z,60,NAT,national,Gamma,PURGED-1\n'
    const first = await h.request('POST', '/customers', { accountNumber: 'KEYED-1' })
    await h.request('POST', `/customers/${first.body.id}/numbers`, { number: '01632960777' })
    assert.equal([(await usage(file)).body.imported, (await usage(file)).body.duplicates], [1, 1])
    assert.ok(await purgeCustomer(h.platform.context, first.body.id))
    // The number goes to someone else, whose carrier sends the record again: nothing holds it now.
    const next = await h.request('POST', '/customers', { accountNumber: 'KEYED-2' })
    await h.request('POST', `/customers/${next.body.id}/numbers`, { number: '01632960777' })
    const again = await usage(file)
    assert.equal([again.status, again.body.imported, again.body.duplicates], [201, 1, 0])
    assert.is((await h.request('GET', `/customers/${next.body.id}/calls`)).body.length, 1)
  })

  test('a purge that fails part-way leaves everything in place', async ({ h }) => {
    const id = (await h.request('POST', '/customers', { accountNumber: 'HALF' })).body.id
    const n = (await h.request('POST', `/customers/${id}/numbers`, { number: '3' })).body.id
    const store = h.platform.context.store
    const failing = new Proxy(store, {
      get(target, prop) {
        if (prop === 'transaction') {
          return (work: (s: typeof store) => Promise<unknown>) =>
            target.transaction(async (tx) => {
              const broken = new Proxy(tx, {
                get(t, p) {
                  if (p === 'repository') {
                    return (name: string) => {
                      if (name === 'customers') {
                        const repo = t.repository('customers')
                        return new Proxy(repo, {
                          get(r, m) {
                            if (m === 'remove') return async () => { throw new Error('injected failure') }
                            return (r as any)[m].bind ? (r as any)[m].bind(r) : (r as any)[m]
                          },
                        })
                      }
                      return t.repository(name as never)
                    }
                  }
                  const v = (t as any)[p]
                  return typeof v === 'function' ? v.bind(t) : v
                },
              })
              return work(broken)
            })
        }
        const v = (target as any)[prop]
        return typeof v === 'function' ? v.bind(target) : v
      },
    })
    let failed = false
    try {
      await purgeCustomer({ ...h.platform.context, store: failing }, id)
    } catch (e) {
      failed = (e as Error).message === 'injected failure'
    }
    assert.ok(failed)
    assert.is((await h.request('GET', `/customers/${id}`)).status, 200)
    assert.is((await h.request('GET', `/numbers/${n}`)).status, 200, 'the number was not deleted either')
  })

  test.run()
}
