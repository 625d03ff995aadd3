import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Store } from '../../core/ports/store.js'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Makes the store fail its `nth` write inside a transaction (a database that dies mid-way):
 * repository updates and inserts and ledger writes count as writes.
 */
function failOnWrite(h: Harness, nth: number): () => void {
  const store = h.platform.context.store as Store & Record<string, unknown>
  const original = store.transaction.bind(store)
  let writes = 0
  const wrap = <T extends object>(target: T, methods: string[]): T =>
    new Proxy(target, {
      get(t, p) {
        const v = (t as any)[p]
        if (typeof v !== 'function') return v
        if (methods.includes(String(p))) {
          return async (...args: unknown[]) => {
            if (++writes === nth) throw new Error('injected database failure')
            return v.apply(t, args)
          }
        }
        return v.bind(t)
      },
    })
  store.transaction = ((work: (s: Store) => Promise<unknown>) =>
    original((tx) =>
      work(
        new Proxy(tx, {
          get(t, p) {
            if (p === 'repository') return (name: never) => wrap(t.repository(name), ['update', 'insert', 'remove', 'updateWhere', 'removeWhere'])
            if (p === 'ledger') return wrap(t.ledger, ['write', 'markInvoiced'])
            if (p === 'lifecycle') return wrap(t.lifecycle, ['append', 'addIgnoreTraffic'])
            const v = (t as any)[p]
            return typeof v === 'function' ? v.bind(t) : v
          },
        }),
      ),
    )) as Store['transaction']
  return () => {
    store.transaction = original
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`faults: a database failure mid-way leaves nothing half-written [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('a failure at any write of a drop cascade leaves the whole tree as it was', async ({ h }) => {
    const c = await newCustomer(h)
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '1' })).body.id
    const features = [await newFeature(h, c, {}), (await h.request('POST', `/numbers/${n}/features`, {})).body.id]
    const snapshot = async () => JSON.stringify([await h.request('GET', `/customers/${c}`), ...(await Promise.all([`/numbers/${n}`, ...features.map((f) => `/features/${f}`)].map((p) => h.request('GET', p))))].map((r) => r.body))
    const before = await snapshot()
    for (let nth = 1; nth <= 6; nth++) {
      const restore = failOnWrite(h, nth)
      const r = await h.request('POST', `/customers/${c}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-15' })
      restore()
      if (r.status === 200) break // fewer writes than nth: the action completed
      assert.is(r.status, 500)
      assert.is(r.body.error_code, 500000)
      assert.is(await snapshot(), before, `after a failure at write ${nth}`)
    }
  })

  test('a failure at any write of a billing batch or a charge change leaves the ledger as it was', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly', connectionCharge: 5 })
    await bill(h, '2026-01-31')
    const before = await ledgerOf(h, f)
    for (let nth = 1; nth <= 3; nth++) {
      const restore = failOnWrite(h, nth)
      const r = await h.request('POST', `/features/${f}?action=changeRecurringCharge`, { serviceCharge: '12.00', dateFrom: '2026-01-01' })
      restore()
      if (r.status === 200) break
      assert.equal(await ledgerOf(h, f), before, `charge change failing at write ${nth}`)
      assert.is((await h.request('GET', `/features/${f}`)).body.serviceCharge, 10)
    }
    await act(h, `/features/${f}`, 'suspend', { status: 'Suspended', dateSuspend: '2026-01-20' })
    void act
  })

  test('fifty simultaneous creates with one accountNumber give exactly one 201', async ({ h }) => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => h.request('POST', '/customers', { accountNumber: 'RACE-1' })))
    assert.is(responses.filter((r) => r.status === 201).length, 1)
    assert.is(responses.filter((r) => r.body.error_code === 409001).length, 49)
  })

  test.run()
}
