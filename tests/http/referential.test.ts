import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

type Tree = { customer: string; number: string; service: string; own: string; onNumber: string; onService: string; contact: string }

async function tree(h: Harness, tag: string): Promise<Tree> {
  const post = async (path: string, body: object) => {
    const r = await h.request('POST', path, body)
    assert.is(r.status, 201, `${path}: ${JSON.stringify(r.body)}`)
    return r.body.id as string
  }
  const customer = await post('/customers', { accountNumber: `REF-${tag}` })
  const number = await post(`/customers/${customer}/numbers`, { number: `0113 496 00${tag}` })
  const service = await post(`/customers/${customer}/services`, { serviceName: `svc ${tag}` })
  return {
    customer,
    number,
    service,
    own: await post(`/customers/${customer}/features`, { description: `own ${tag}` }),
    onNumber: await post(`/numbers/${number}/features`, { description: `number ${tag}` }),
    onService: await post(`/services/${service}/features`, { description: `service ${tag}` }),
    contact: await post(`/customers/${customer}/customerContacts`, { lastname: tag }),
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; a: Tree; b: Tree }>(`http referential integrity [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
    ctx.a = await tree(ctx.h, '01')
    ctx.b = await tree(ctx.h, '02')
  })
  test.after(async (ctx) => ctx.h.close())

  test('whatever is created under a customer is found through every route that should list it, and no other', async ({ h, a, b }) => {
    const list = async (path: string) => {
      const r = await h.request('GET', path)
      assert.is(r.status, 200, path)
      return (r.body as any[]).map((x) => x.id).sort()
    }
    for (const [t, other] of [
      [a, b],
      [b, a],
    ] as const) {
      // [path, collection listed, expected IDs]: IDs are compared within one collection.
      const expectations: [string, keyof Tree, string[]][] = [
        [`/customers/${t.customer}/numbers`, 'number', [t.number]],
        [`/customers/${t.customer}/services`, 'service', [t.service]],
        [`/customers/${t.customer}/features`, 'own', [t.own]],
        [`/customers/${t.customer}/features?includeNumbers`, 'own', [t.own, t.onNumber]],
        [`/customers/${t.customer}/features?includeServices`, 'own', [t.own, t.onService]],
        [`/customers/${t.customer}/features?includeNumbers&includeServices`, 'own', [t.own, t.onNumber, t.onService]],
        [`/numbers/${t.number}/features`, 'own', [t.onNumber]],
        [`/services/${t.service}/features`, 'own', [t.onService]],
        [`/customers/${t.customer}/customerContacts`, 'contact', [t.contact]],
      ]
      const othersOf = (kind: keyof Tree) =>
        kind === 'own' ? [other.own, other.onNumber, other.onService] : [other[kind]]
      for (const [path, kind, want] of expectations) {
        const got = await list(path)
        assert.equal(got, [...want].sort(), path)
        for (const id of othersOf(kind)) assert.not.ok(got.includes(id), `${path} lists ${id} of the other customer`)
      }
    }
    assert.equal(await list('/numbers'), [a.number, b.number].sort())
    assert.equal(await list('/features'), [a.own, a.onNumber, a.onService, b.own, b.onNumber, b.onService].sort())
    const expanded = (await h.request('GET', `/customers/${a.customer}?expandNumbers&expandServices&expandFeatures`)).body
    assert.equal(expanded.numbers.map((n: any) => n.id), [a.number])
    assert.equal(expanded.numbers[0].features.map((f: any) => f.id), [a.onNumber])
    assert.equal(expanded.services[0].features.map((f: any) => f.id), [a.onService])
    assert.equal(expanded.features.map((f: any) => f.id), [a.own])
  })

  test.run()
}
