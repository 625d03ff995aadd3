import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { purgeCustomer } from '../../core/resources/removals.js'
import { newCustomer } from '../support/billing.js'
import { openHarness, type ApiResponse, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Writes that meet in one customer's tree or one tariff (contract 2: 500000 is for unexpected
 * failures only). Every path locks a customer before its numbers, services and features, and a
 * parent before its children, so two requests at once never deadlock; an item or parent deleted
 * by the other request is not found (404001), never a failure. Each race is run a few times: on
 * Postgres the requests really overlap, and one run alone would often miss the collision.
 * Written once, run against every database.
 */
const ROUNDS = 4
const answer = (r: ApiResponse) => `${r.status}${r.body?.error_code ? `/${r.body.error_code}` : ''}`
const one = (r: ApiResponse, allowed: readonly string[], what: string) => assert.ok(allowed.includes(answer(r)), `${what}: ${answer(r)} ${r.text}`)
const id = async (h: Harness, path: string, body: unknown): Promise<string> => {
  const r = await h.request('POST', path, body)
  assert.is(r.status, 201, r.text)
  return r.body.id
}
const support = { featureType: 'Support', startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' }

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`writes at once in one customer's tree or tariff [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test("a number's credit limit changed while the number is suspended or its customer dropped: both succeed", async ({ h }) => {
    for (let i = 0; i < ROUNDS; i++) {
      const c = await newCustomer(h)
      const n = await id(h, `/customers/${c}/numbers`, { number: `01632 96${String(i).padStart(4, '0')}` })
      // Calls over the new limit: the PATCH writes the customer's credit alerts.
      await id(h, `/customers/${c}/transactions`, { transactionType: 'Call Charges', amount: 20, numberID: n, transactionDate: '2026-01-15' })
      const other =
        i % 2 === 0 ? h.request('POST', `/numbers/${n}?action=suspend`, { status: 'Suspended' }) : h.request('POST', `/customers/${c}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-15' })
      const [patch, action] = await Promise.all([h.request('PATCH', `/numbers/${n}`, { creditLimit: 1 }), other])
      one(patch, ['200'], 'PATCH creditLimit')
      one(action, ['200'], i % 2 === 0 ? 'suspend the number' : 'drop the customer')
      assert.equal((await h.request('GET', `/customers/${c}`)).body.creditAlerts, ['numberCreditLimit'])
    }
  })

  test('an action or a PATCH on an item deleted at the same time: done before the delete, or 404001', async ({ h }) => {
    const c = await newCustomer(h)
    for (let i = 0; i < ROUNDS; i++) {
      const races: [string, (f: string) => Promise<ApiResponse>][] = [
        ['drop', (f) => h.request('POST', `/features/${f}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-15' })],
        ['changeRecurringCharge', (f) => h.request('POST', `/features/${f}?action=changeRecurringCharge`, { serviceCharge: '12.00' })],
        ['PATCH', (f) => h.request('PATCH', `/features/${f}`, { serviceCharge: '13.00' })],
      ]
      for (const [what, run] of races) {
        const f = await id(h, `/customers/${c}/features`, support)
        const [del, other] = await Promise.all([h.request('DELETE', `/features/${f}`), run(f)])
        one(del, ['200', '404/404001'], `DELETE beside ${what}`)
        one(other, ['200', '404/404001'], `${what} of a feature deleted at once`)
      }
      const n = await id(h, `/customers/${c}/numbers`, { number: `020 7946 ${String(i).padStart(4, '0')}` })
      const f = await id(h, `/numbers/${n}/features`, support)
      const [del, drop] = await Promise.all([h.request('DELETE', `/numbers/${n}`), h.request('POST', `/features/${f}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-15' })])
      one(del, ['200'], 'DELETE the number')
      one(drop, ['200', '404/404001'], 'drop a feature of a number deleted at once')
      const m = await id(h, `/customers/${c}/numbers`, { number: `020 7947 ${String(i).padStart(4, '0')}` })
      const [del2, suspend] = await Promise.all([h.request('DELETE', `/numbers/${m}`), h.request('POST', `/numbers/${m}?action=suspend`, { status: 'Suspended' })])
      one(del2, ['200'], 'DELETE the number')
      one(suspend, ['200', '404/404001'], 'suspend a number deleted at once')
    }
  })

  test("a feature's action while its number is deleted: the number before the feature, never a deadlock", async ({ h }) => {
    const c = await newCustomer(h)
    // Staggered: the deadlock came when the action held the feature as the delete reached the features.
    for (let i = 0; i < 10; i++) {
      const n = await id(h, `/customers/${c}/numbers`, { number: `020 7949 ${String(i).padStart(4, '0')}` })
      const f = await id(h, `/numbers/${n}/features`, support)
      const later = new Promise((done) => setTimeout(done, i * 4)).then(() => h.request('DELETE', `/numbers/${n}`))
      const [drop, del] = await Promise.all([h.request('POST', `/features/${f}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-15' }), later])
      one(del, ['200'], 'DELETE the number')
      one(drop, ['200', '404/404001'], 'drop a feature of a number deleted at once')
    }
  })

  test('a write-off of a customer purged at the same time: done before the purge, or 404001', async ({ h }) => {
    for (let i = 0; i < ROUNDS; i++) {
      const c = await newCustomer(h)
      await id(h, `/customers/${c}/transactions`, { transactionType: 'Debit Note', amount: 100 })
      assert.is((await h.request('POST', `/customers/${c}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-15' })).status, 200)
      const [w] = await Promise.all([h.request('POST', `/customers/${c}?action=writeOffDebt`, { dateWriteoff: '2026-01-15' }), purgeCustomer(h.platform.context, c)])
      one(w, ['200', '404/404001'], 'writeOffDebt')
    }
  })

  test('a child created under a parent deleted at the same time: created before the delete (and gone with it), or 404001', async ({ h }) => {
    const c = await newCustomer(h)
    for (let i = 0; i < ROUNDS; i++) {
      const n = await id(h, `/customers/${c}/numbers`, { number: `020 7948 ${String(i).padStart(4, '0')}` })
      const t = await id(h, '/tariffs', { name: `Race ${i}` })
      const ft = await id(h, '/fixedFeeTariffs', { name: `Race fixed ${i}` })
      const table = await id(h, '/destinationTables', { name: `Race table ${i}` })
      const races: [string, string, unknown][] = [
        [`/numbers/${n}`, `/numbers/${n}/features`, support],
        [`/tariffs/${t}`, `/tariffs/${t}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.60' }],
        [`/fixedFeeTariffs/${ft}`, `/fixedFeeTariffs/${ft}/fixedFeeTariffDetails`, { featureTypes: ['Support'], serviceCharge: '1.00' }],
        [`/destinationTables/${table}`, `/destinationTables/${table}/destinations`, { prefix: '44', chargeBand: 'UK', callClass: 'national' }],
      ]
      const answers = await Promise.all(races.map(([parent, children, body]) => Promise.all([h.request('DELETE', parent), h.request('POST', children, body)])))
      for (const [k, [del, created]] of answers.entries()) {
        one(del, ['200'], `DELETE ${races[k][0]}`)
        one(created, ['201', '404/404001'], `POST ${races[k][1]}`)
        if (created.status === 201) assert.is((await h.request('GET', `/${races[k][1].split('/').at(-1)}/${created.body.id}`)).status, 404, 'deleted with its parent')
      }
    }
  })

  test.run()
}
