import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { purgeCustomer } from '../../core/resources/removals.js'
import { openHarness, type Harness } from '../support/harness.js'
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

    assert.ok(await purgeCustomer(h.platform.context.store, gone))
    for (const path of [`/customers/${gone}`, `/numbers/${number}`, `/services/${service}`, `/customerContacts/${direct}`, ...features.map((f) => `/features/${f}`)]) {
      assert.is((await h.request('GET', path)).status, 404, path)
    }
    assert.is((await h.request('GET', `/customerContacts/${shared}`)).status, 200, 'the shared contact stays')
    assert.equal((await h.request('GET', `/customers/${keep}/customerContacts`)).body.map((c: any) => c.id), [shared])
    assert.is((await h.request('GET', `/numbers/${keepNumber}`)).status, 200)
    assert.not.ok(await purgeCustomer(h.platform.context.store, gone), 'a second purge finds nothing')
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
      await purgeCustomer(failing, id)
    } catch (e) {
      failed = (e as Error).message === 'injected failure'
    }
    assert.ok(failed)
    assert.is((await h.request('GET', `/customers/${id}`)).status, 200)
    assert.is((await h.request('GET', `/numbers/${n}`)).status, 200, 'the number was not deleted either')
  })

  test.run()
}
