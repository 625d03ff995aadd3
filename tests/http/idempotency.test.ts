import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { KyselyIdempotencyStore } from '../../adapters/persistence/repositories/kysely-idempotency-store.js'
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

  test('a key changes no error: the item in the path answers first, then the body and the key (contract 2)', async ({ h }) => {
    const big = `{"note":"${'x'.repeat(1024 * 1024)}"}`
    for (const key of [null, 'order-1', 'a b']) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(key === null ? {} : { 'idempotency-key': key }) }
      const r = await h.request('POST', '/customers/9999?action=drop', undefined, { raw: big, headers })
      assert.equal([r.status, r.body?.error_code], [404, 404001], `key ${key}: ${r.text}`)
      const missing = await h.request('POST', '/customers/9999?action=drop', { status: 'Dropped' }, { headers })
      assert.equal([missing.status, missing.body?.error_code], [404, 404001], `key ${key}, small body: ${missing.text}`)
    }
    const c = (await h.request('POST', '/customers', {})).body.id
    const drop = { status: 'Dropped', dateDrop: '2026-01-15' }
    const tooLarge = await h.request('POST', `/customers/${c}?action=drop`, undefined, { raw: big, headers: { 'content-type': 'application/json', 'idempotency-key': 'order-2' } })
    assert.equal([tooLarge.status, tooLarge.body?.error_code], [413, 413001], tooLarge.text)
    const malformed = await h.request('POST', `/customers/${c}?action=drop`, drop, { headers: { 'idempotency-key': 'a b' } })
    assert.equal([malformed.status, malformed.body?.error_code], [400, 400100], malformed.text)
    assert.is((await h.request('GET', `/customers/${c}`)).body.status, 'Active', 'nothing ran')
    const dropped = await h.request('POST', `/customers/${c}?action=drop`, drop, { headers: { 'idempotency-key': 'order-2' } })
    assert.is(dropped.status, 200, 'the refused body bound nothing to its key')
  })

  test('a repeat to the path with a trailing slash, or with a charset or another case in its content type, is the same request', async ({ h }) => {
    const headers = { 'idempotency-key': 'same-1' }
    const first = await h.request('POST', '/customers', { accountNumber: 'IDEM-SAME' }, { headers })
    assert.is(first.status, 201)
    for (const [path, type] of [['/customers/', 'application/json'], ['/customers', 'application/json; charset=utf-8'], ['/customers/', 'Application/JSON; charset="UTF-8"']]) {
      const again = await h.request('POST', path, { accountNumber: 'IDEM-SAME' }, { headers: { ...headers, 'content-type': type } })
      assert.equal([again.status, again.headers.get('idempotent-replayed'), again.body], [201, 'true', first.body], `${path} ${type}: ${again.text}`)
    }
    assert.is(await count(h, 'IDEM-SAME'), 1)
    const other = await h.request('POST', '/customers/', { accountNumber: 'IDEM-OTHER' }, { headers })
    assert.is(other.body.error_code, 409004, 'another body is still another request')
  })

  test('the daily purge deletes records older than 24 hours (a PIN answered is not kept); a fresh one stays and replays', async ({ h }) => {
    const { db, dialect } = h.platform.database
    const c = (await h.request('POST', '/customers', {})).body.id
    const pin = await h.request('POST', `/customers/${c}?action=generatePIN`, {}, { headers: { 'idempotency-key': 'pin-1' } })
    assert.match(pin.body.pin, /^\d{6}$/)
    const fresh = await h.request('POST', '/customers', { accountNumber: 'IDEM-FRESH' }, { headers: { 'idempotency-key': 'fresh-1' } })
    // Records are stamped by the wall clock (the middleware's leases are too), not the platform's.
    const age = (key: string, ms: number) =>
      db.updateTable('idempotency_keys').set({ createdAt: dialect.encodeBigint(BigInt(Date.now() - ms)) }).where('key', '=', key).execute()
    await age('pin-1', 24 * 3_600_000 + 60_000)
    await age('fresh-1', 23 * 3_600_000)
    const ends: { result?: Record<string, unknown> }[] = []
    const scheduler = h.platform.createScheduler({ onJobEnd: (e) => ends.push(e) })
    await scheduler.runNow('purge-customers')
    await scheduler.stop()
    assert.is(ends[0]?.result?.idempotencyKeys, 1)
    const keys = async () => (await db.selectFrom('idempotency_keys').select('key').where('key', 'in', ['pin-1', 'fresh-1']).execute()).map((r) => r.key)
    assert.equal(await keys(), ['fresh-1'])
    const again = await h.request('POST', '/customers', { accountNumber: 'IDEM-FRESH' }, { headers: { 'idempotency-key': 'fresh-1' } })
    assert.equal([again.status, again.headers.get('idempotent-replayed'), again.body], [201, 'true', fresh.body])

    // In bounded batches: each statement deletes at most `batch` rows, and the purge goes on until none is left.
    const store = new KyselyIdempotencyStore(db, dialect)
    const old = Date.now() - 25 * 3_600_000
    for (const key of ['b1', 'b2', 'b3', 'b4', 'b5']) await store.claim('batch', key, 'f', old, 24 * 3_600_000, 60_000)
    h.queries.length = 0
    assert.is(await store.removeBefore(Date.now() - 24 * 3_600_000, 2), 5)
    assert.is(h.queries.filter((q) => /^delete from "idempotency_keys"/i.test(q)).length, 3)
    assert.equal(await keys(), ['fresh-1'])
  })

  test.run()
}
