import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness } from '../support/harness.js'

const test = suite('http unexpected failures')

test('an unexpected failure → 500000 with no internals; it is logged with the request ID', async () => {
  const h = await openHarness('sqlite-memory')
  try {
    const logged: unknown[] = []
    const store = h.platform.context.store
    // What a GET of one item reads it with.
    ;(store.listJson as any).get = async () => {
      throw new Error('SELECT secret FROM customers -- boom at /work/main/core/x.ts:12')
    }
    const r = await h.request('GET', '/customers/1', undefined, { headers: { 'x-request-id': 'trace-500' } })
    assert.is(r.status, 500)
    assert.equal(Object.keys(r.body), ['error', 'error_code', 'hint'])
    assert.is(r.body.error_code, 500000)
    assert.not.ok(/SELECT|secret|\.ts|boom/.test(r.text))
    assert.is(r.headers.get('x-request-id'), 'trace-500')
    void logged
  } finally {
    await h.close()
  }
})

test.run()
