import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { newCustomer } from '../support/billing.js'
import { openHarness, type ApiResponse, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A tariff deleted or renamed while a write makes an item name it (contract 4: a tariff field
 * names an existing tariff; 409002: a tariff in use is not deleted; a new name is carried to its
 * users), while an item naming it is created, or while a tariff is made its child. Whichever
 * commits first, no item is left naming a tariff that no longer exists: the write is refused
 * (400101) or the delete is (409002), and a rename either carries the new name to the item or
 * leaves the write refused. Tariffs made each other's parent at once leave no cycle: one of the
 * writes is refused (400101). Each pair is fired several times: on Postgres the requests really
 * overlap, and one run alone would often miss the collision. Written once, run against every
 * database.
 */
const ROUNDS = 6
const answer = (r: ApiResponse) => `${r.status}${r.body?.error_code ? `/${r.body.error_code}` : ''}`
const id = async (h: Harness, path: string, body: unknown): Promise<string> => {
  const r = await h.request('POST', path, body)
  assert.is(r.status, 201, r.text)
  return r.body.id
}
const support = { featureType: 'Support', startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' }
/** The call and fixed fee tariffs' collections, and the item (path) and field a write makes name one. */
const kinds = [
  { tariffs: '/tariffs', user: async (h: Harness) => `/customers/${await newCustomer(h)}`, field: 'defaultNationalTariff' },
  { tariffs: '/fixedFeeTariffs', user: async (h: Harness) => `/numbers/${await id(h, `/customers/${await newCustomer(h)}/numbers`, { number: `01632 97${String(++serial).padStart(4, '0')}` })}`, field: 'fixedFeeTariff' },
  { tariffs: '/fixedFeeTariffs', user: async (h: Harness) => `/features/${await id(h, `/customers/${await newCustomer(h)}/features`, support)}`, field: 'fixedFeeTariff' },
] as const
let serial = 0
/** Creates that make a new item name a tariff. */
const creates = [
  { tariffs: '/tariffs', path: 'customers', field: 'defaultNationalTariff' },
  { tariffs: '/fixedFeeTariffs', path: 'features', field: 'fixedFeeTariff' },
] as const

/** Whether a tariff of that collection has this name now. */
const exists = async (h: Harness, tariffs: string, name: string): Promise<boolean> =>
  ((await h.request('GET', `${tariffs}?limit=1000`)).body as { name: string }[]).some((t) => t.name === name)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`a tariff deleted or renamed while an item is made to name it [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('DELETE of the tariff beside the write: the delete is refused (409002) or the write is (400101), never a name left dangling', async ({ h }) => {
    for (let i = 0; i < ROUNDS; i++) {
      for (const { tariffs, user, field } of kinds) {
        const name = `Gone ${++serial}`
        const t = await id(h, tariffs, { name })
        const item = await user(h)
        const [del, write] = await Promise.all([h.request('DELETE', `${tariffs}/${t}`), h.request('PATCH', item, { [field]: name })])
        const outcome = `DELETE ${answer(del)}, PATCH ${item} ${answer(write)}`
        assert.ok(['200|400/400101', '409/409002|200'].includes(`${answer(del)}|${answer(write)}`), outcome)
        const named = (await h.request('GET', item)).body[field]
        assert.is(named, write.status === 200 ? name : null, outcome)
        if (named !== null) assert.ok(await exists(h, tariffs, named), `${outcome}: ${item} names ${named}, which no longer exists`)
      }
    }
  })

  test('rename of the tariff beside the write: the item ends naming the new name, or the write is refused (400101)', async ({ h }) => {
    for (let i = 0; i < ROUNDS; i++) {
      for (const { tariffs, user, field } of kinds) {
        const name = `Old ${++serial}`
        const t = await id(h, tariffs, { name })
        const item = await user(h)
        const [rename, write] = await Promise.all([h.request('PATCH', `${tariffs}/${t}`, { name: `${name} renamed` }), h.request('PATCH', item, { [field]: name })])
        const outcome = `rename ${answer(rename)}, PATCH ${item} ${answer(write)}`
        assert.is(answer(rename), '200', outcome)
        assert.ok(['200', '400/400101'].includes(answer(write)), outcome)
        assert.is((await h.request('GET', item)).body[field], write.status === 200 ? `${name} renamed` : null, outcome)
      }
    }
  })

  test('a create naming the tariff beside its DELETE or rename: never an item left naming a name that no longer exists', async ({ h }) => {
    for (let i = 0; i < ROUNDS; i++) {
      for (const { tariffs, field, path } of creates) {
        const name = `Made ${++serial}`
        const t = await id(h, tariffs, { name })
        const owner = await newCustomer(h)
        const body = (n: string) => (path === 'customers' ? { [field]: n } : { ...support, [field]: n })
        const into = path === 'customers' ? '/customers' : `/customers/${owner}/features`
        const [del, made] = await Promise.all([h.request('DELETE', `${tariffs}/${t}`), h.request('POST', into, body(name))])
        const deleted = `DELETE ${answer(del)}, POST ${into} ${answer(made)}`
        assert.ok(['200|400/400101', '409/409002|201'].includes(`${answer(del)}|${answer(made)}`), deleted)
        const other = `Made ${++serial}`
        const renamedTo = `${other} renamed`
        const t2 = await id(h, tariffs, { name: other })
        const [rename, again] = await Promise.all([h.request('PATCH', `${tariffs}/${t2}`, { name: renamedTo }), h.request('POST', into, body(other))])
        const renamed = `rename ${answer(rename)}, POST ${into} ${answer(again)}`
        assert.is(answer(rename), '200', renamed)
        assert.ok(['201', '400/400101'].includes(answer(again)), renamed)
        if (again.status === 201) assert.is((await h.request('GET', `/${path}/${again.body.id}`)).body[field], renamedTo, renamed)
      }
    }
  })

  test('DELETE of a tariff beside a write making it another tariff\'s parent: the delete is refused (409002) or the write is (400101), never a parent left gone', async ({ h }) => {
    for (let i = 0; i < ROUNDS; i++) {
      for (const [tariffs, field] of [['/tariffs', 'parentTariff'], ['/fixedFeeTariffs', 'parentFixedFeeTariff']] as const) {
        const parent = await id(h, tariffs, { name: `Parent ${++serial}` })
        const child = await id(h, tariffs, { name: `Child ${serial}` })
        const [del, write] = await Promise.all([h.request('DELETE', `${tariffs}/${parent}`), h.request('PATCH', `${tariffs}/${child}`, { [field]: parent })])
        const outcome = `DELETE ${answer(del)}, PATCH ${answer(write)}`
        assert.ok(['200|400/400101', '409/409002|200'].includes(`${answer(del)}|${answer(write)}`), outcome)
        const named = (await h.request('GET', `${tariffs}/${child}`)).body[field]
        if (named) assert.is((await h.request('GET', `${tariffs}/${named}`)).status, 200, `${outcome}: the child names ${named}, which no longer exists`)
      }
    }
  })

  test('tariffs made each other\'s parent at once (two or three in a ring): one write is refused (400101), never a 500, never a cycle stored', async ({ h }) => {
    for (let i = 0; i < ROUNDS; i++) {
      for (const [tariffs, field] of [['/tariffs', 'parentTariff'], ['/fixedFeeTariffs', 'parentFixedFeeTariff']] as const) {
        for (const size of [2, 3]) {
          const ring: string[] = []
          for (let k = 0; k < size; k++) ring.push(await id(h, tariffs, { name: `Ring ${++serial}` }))
          const writes = await Promise.all(ring.map((t, k) => h.request('PATCH', `${tariffs}/${t}`, { [field]: ring[(k + 1) % size] })))
          const outcome = writes.map(answer).join(', ')
          assert.ok(writes.every((w) => ['200', '400/400101'].includes(answer(w))), outcome)
          assert.ok(writes.some((w) => w.status === 400), `${outcome}: every write of the ring succeeded`)
          const parents = await Promise.all(ring.map(async (t) => (await h.request('GET', `${tariffs}/${t}`)).body[field]))
          assert.ok(parents.some((p) => !p), `${outcome}: a cycle was stored (${parents.join(' ')})`)
        }
      }
    }
  })

  test('rename of a tariff the customer already names, beside a write naming it in another field: both succeed and both fields carry the new name', async ({ h }) => {
    for (let i = 0; i < ROUNDS; i++) {
      const name = `Held ${++serial}`
      const t = await id(h, '/tariffs', { name })
      const c = await newCustomer(h, { defaultNationalTariff: name })
      const [rename, write] = await Promise.all([h.request('PATCH', `/tariffs/${t}`, { name: `${name} renamed` }), h.request('PATCH', `/customers/${c}`, { defaultMobileTariff: name })])
      const outcome = `rename ${answer(rename)}, PATCH customer ${answer(write)}`
      assert.is(answer(rename), '200', outcome)
      assert.ok(['200', '400/400101'].includes(answer(write)), outcome)
      const customer = (await h.request('GET', `/customers/${c}`)).body
      assert.is(customer.defaultNationalTariff, `${name} renamed`, outcome)
      assert.is(customer.defaultMobileTariff, write.status === 200 ? `${name} renamed` : null, outcome)
    }
  })

  test.run()
}
