import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`http Idempotency-Key [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  const count = async (h: Harness, accountNumber: string) => (await h.request('GET', `/customers?accountNumber=${accountNumber}`)).body.length

  test('a repeat returns the first response without creating twice; another request with the key → 409004', async ({ h }) => {
    const headers = { 'idempotency-key': 'create-1' }
    const first = await h.request('POST', '/customers', { accountNumber: 'IDEM-1' }, { headers })
    const second = await h.request('POST', '/customers', { accountNumber: 'IDEM-1' }, { headers })
    assert.is(first.status, 201)
    assert.is(second.status, 201)
    assert.equal(second.body, first.body)
    assert.is(second.headers.get('location'), first.headers.get('location'))
    assert.is(second.headers.get('idempotent-replayed'), 'true')
    assert.is(await count(h, 'IDEM-1'), 1)
    const other = await h.request('POST', '/customers', { accountNumber: 'IDEM-2' }, { headers })
    assert.is(other.status, 409)
    assert.is(other.body.error_code, 409004)
    assert.is(await count(h, 'IDEM-2'), 0)
    const noKey = await h.request('POST', '/customers', { accountNumber: 'IDEM-1' })
    assert.is(noKey.body.error_code, 409001, 'without a key it is a new request')
  })

  test('retries racing the first request all get its response; exactly one customer exists', async ({ h }) => {
    const headers = { 'idempotency-key': 'race-1' }
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => h.request('POST', '/customers', { accountNumber: 'IDEM-RACE' }, { headers })),
    )
    const ids = new Set(responses.map((r) => r.body.id))
    assert.equal([...new Set(responses.map((r) => r.status))], [201])
    assert.is(ids.size, 1)
    assert.is(await count(h, 'IDEM-RACE'), 1)
  })

  test('an action retried after a timeout does not run twice', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    const headers = { 'idempotency-key': `drop-${c}` }
    const body = { status: 'Dropped', dateDrop: '2026-01-15' }
    const a = await h.request('POST', `/customers/${c}?action=drop`, body, { headers })
    const b = await h.request('POST', `/customers/${c}?action=drop`, body, { headers })
    assert.is(a.status, 200)
    assert.is(b.status, 200, 'replayed, not refused as already dropped')
    assert.equal(b.body, a.body)
    const direct = await h.request('POST', `/customers/${c}?action=drop`, body)
    assert.is(direct.body.error_code, 400502)
  })

  test('keys are scoped to the API key; a malformed key is refused', async ({ h }) => {
    const headers = { 'idempotency-key': 'shared-name' }
    const a = await h.request('POST', '/customers', { accountNumber: 'SCOPE-A' }, { headers })
    const b = await h.request('POST', '/customers', { accountNumber: 'SCOPE-B' }, { headers, key: h.keys.low })
    assert.is(a.status, 201)
    assert.is(b.status, 201)
    assert.is.not(a.body.id, b.body.id)
    const bad = await h.request('POST', '/customers', {}, { headers: { 'idempotency-key': 'x'.repeat(300) } })
    assert.is(bad.status, 400)
  })

  test.run()
}
