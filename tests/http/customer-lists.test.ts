import { request as httpRequest } from 'node:http'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; ids: string[] }>(`http customer lists [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
    ctx.ids = []
    for (let i = 1; i <= 7; i++) {
      const r = await ctx.h.request('POST', '/customers', { accountNumber: `L-${i}`, CRMReference: `C-${i}` })
      ctx.ids.push(r.body.id)
      ctx.h.clock.advanceMs(3_600_000)
    }
  })
  test.after(async (ctx) => ctx.h.close())

  test('lists are ordered by ID; limit, offset and idAfter page; Link points at the next page', async ({ h, ids }) => {
    const all = await h.request('GET', '/customers')
    assert.equal(all.body.map((c: any) => c.id), ids)
    assert.is(all.headers.get('link'), null)
    const p1 = await h.request('GET', '/customers?limit=3')
    assert.equal(p1.body.map((c: any) => c.id), ids.slice(0, 3))
    const link = p1.headers.get('link')!
    assert.match(link, /rel="next"/)
    const next = /<([^>]+)>/.exec(link)![1]
    const p2 = await h.request('GET', next)
    assert.equal(p2.body.map((c: any) => c.id), ids.slice(3, 6))
    const p3 = await h.request('GET', /<([^>]+)>/.exec(p2.headers.get('link')!)![1])
    assert.equal(p3.body.map((c: any) => c.id), ids.slice(6))
    assert.is(p3.headers.get('link'), null)
    const off = await h.request('GET', '/customers?limit=2&offset=2')
    assert.equal(off.body.map((c: any) => c.id), ids.slice(2, 4))
    assert.match(off.headers.get('link')!, /offset=4/)
    const after = await h.request('GET', `/customers?idAfter=${ids[4]}`)
    assert.equal(after.body.map((c: any) => c.id), ids.slice(5))
    assert.equal((await h.request('GET', '/customers/?limit=1000')).body.length, 7, 'trailing slash and max limit')
  })

  test('invalid query parameters → 400103', async ({ h }) => {
    for (const q of [
      'limit=0',
      'limit=1001',
      'limit=abc',
      'limit=-1',
      'offset=x',
      'idAfter=1.5',
      'accountnumber=L-1',
      'bogus=1',
      'createdSince=2026-01-15',
      'createdSince=2026-01-15T10:00',
      'updatedSince=yesterday',
      'droppedSince=2026-02-30T00:00:00Z',
      'active=yes',
      'limit=1&limit=2',
    ]) {
      const r = await h.request('GET', `/customers?${q}`)
      assert.is(r.status, 400, q)
      assert.is(r.body.error_code, 400103, q)
    }
  })

  test('accountNumber and CRMReference searches return one match or an empty array', async ({ h, ids }) => {
    assert.equal((await h.request('GET', '/customers?accountNumber=L-3')).body.map((c: any) => c.id), [ids[2]])
    assert.equal((await h.request('GET', '/customers?CRMReference=C-5')).body.map((c: any) => c.id), [ids[4]])
    assert.equal((await h.request('GET', '/customers?accountNumber=nope')).body, [])
    assert.equal((await h.request('GET', "/customers?accountNumber=L-1'%20OR%20'1'='1")).body, [], 'SQL is matched literally')
    assert.equal((await h.request('GET', '/customers?accountNumber=L-3&active')).body.length, 1)
  })

  test('createdSince and updatedSince compare system stamps (no designator means UTC; offsets honoured)', async ({ h, ids }) => {
    // customer i was created at 10:00 + (i-1) hours on 2026-01-15
    const since = await h.request('GET', '/customers?createdSince=2026-01-15T13:00:00')
    assert.equal(since.body.map((c: any) => c.id), ids.slice(3))
    const offset = await h.request('GET', '/customers?createdSince=2026-01-15T14:00:00%2B01:00')
    assert.equal(offset.body.map((c: any) => c.id), ids.slice(3))
    h.clock.set('2026-01-16T00:00:00Z')
    await h.request('PATCH', `/customers/${ids[1]}`, { lastname: 'Changed' })
    const updated = await h.request('GET', '/customers?updatedSince=2026-01-15T23:00:00Z')
    assert.equal(updated.body.map((c: any) => c.id), [ids[1]])
  })

  test('state filters: all active, none dropped or in final bill; flags given bare, as true or as false', async ({ h, ids }) => {
    assert.is((await h.request('GET', '/customers?active')).body.length, ids.length)
    assert.is((await h.request('GET', '/customers?active=true')).body.length, ids.length)
    assert.is((await h.request('GET', '/customers?dropped')).body.length, 0)
    assert.is((await h.request('GET', '/customers?dropped=false')).body.length, ids.length)
    assert.is((await h.request('GET', '/customers?finalBill=true')).body.length, 0)
    assert.is((await h.request('GET', '/customers?excludeFinalBill')).body.length, ids.length)
    assert.is((await h.request('GET', '/customers?droppedSince=2020-01-01T00:00:00Z')).body.length, 0)
    assert.is((await h.request('GET', '/customers?reinstatedSince=2020-01-01T00:00:00Z')).body.length, 0)
  })
  test.run()
}

test_socket()

/** The same API over a real socket, once (what only a listening server shows). */
function test_socket() {
  const test = suite<{ h: Harness }>('http customers over a socket [sqlite-memory]')
  test.before(async (ctx) => {
    ctx.h = await openHarness('sqlite-memory', { transport: 'socket' })
  })
  test.after(async (ctx) => ctx.h.close())
  test('create, get, 401 and 405 over a real connection', async ({ h }) => {
    const c = await h.request('POST', '/customers', { accountNumber: 'S-1' })
    assert.is(c.status, 201)
    assert.is((await h.request('GET', `/customers/${c.body.id}`)).body.accountNumber, 'S-1')
    assert.is((await h.request('GET', '/customers', undefined, { key: null })).status, 401)
    assert.is((await h.request('PUT', `/customers/${c.body.id}`, {})).headers.get('allow'), 'DELETE, GET, PATCH, POST')
  })
  test('bodies read from the socket: chunked in pieces, malformed, and past 1 MiB without a length', async ({ h }) => {
    const base = await h.listen()
    const chunked = async (pieces: string[]) => {
      const res = await chunkedPost(`${base}/backend/api/v1/customers`, h.keys.admin, pieces)
      return { status: res.status, body: JSON.parse(res.text) }
    }
    const json = JSON.stringify({ accountNumber: 'S-CHUNKED', lastname: 'Byron' })
    const made = await chunked([json.slice(0, 7), json.slice(7, 20), json.slice(20)])
    assert.is(made.status, 201)
    assert.is(made.body.lastname, 'Byron')
    assert.is((await chunked(['{"accountNumber": '])).body.error_code, 400100)
    const big = await chunked(Array.from({ length: 40 }, () => 'x'.repeat(64 * 1024)))
    assert.is(big.status, 413)
    assert.is(big.body.error_code, 413001)
    assert.is((await h.request('GET', `/customers/${made.body.id}`)).status, 200, 'the server answers on')
  })
  test.run()
}


/** A POST whose body goes out in chunks (Transfer-Encoding: chunked, no Content-Length). */
function chunkedPost(url: string, key: string, pieces: readonly string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
    })
    // The server may answer 413 and stop reading before all is sent.
    req.on('error', reject)
    for (const p of pieces) req.write(p)
    req.end()
  })
}
