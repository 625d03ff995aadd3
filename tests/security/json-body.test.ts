import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { jsonStructureProblem, MAX_JSON_DEPTH } from '../../adapters/http/json-structure.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const scan = suite('security json body: duplicate keys and depth')

scan('a key given twice in one object is found, however it is spelled; the same key in two objects is fine', () => {
  assert.match(jsonStructureProblem('{"a":1,"a":2}') ?? '', /"a" is given twice/)
  assert.match(jsonStructureProblem('{"a":1,"\\u0061":2}') ?? '', /"a" is given twice/)
  assert.match(jsonStructureProblem('{"x":{"b":[1,{"c":1,"c":1}]}}') ?? '', /"c" is given twice/)
  assert.match(jsonStructureProblem('{"a\\"b":1, "a\\"b" : 2}') ?? '', /given twice/)
  assert.is(jsonStructureProblem('{"a":{"a":1},"b":{"a":2},"c":[{"a":1},{"a":2}]}'), null)
  assert.is(jsonStructureProblem('{"a":"\\"a\\":1","b":"{\\"a\\":1,\\"a\\":2}"}'), null, 'keys inside strings are text')
  assert.is(jsonStructureProblem('{"a\\\\":1,"a":2}'), null, 'an escaped backslash ends the key')
  assert.is(jsonStructureProblem('{}'), null)
})

scan('nesting deeper than the limit is found, in arrays and objects', () => {
  const arrays = (n: number) => `{"a":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`
  assert.is(jsonStructureProblem(arrays(MAX_JSON_DEPTH)), null)
  assert.match(jsonStructureProblem(arrays(MAX_JSON_DEPTH + 1)) ?? '', /nested deeper than 32/)
  assert.match(jsonStructureProblem(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`) ?? '', /nested/)
})
scan.run()

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`security json body [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('a duplicate key or a deep body → 400100, nothing stored; a valid body still works', async ({ h }) => {
    const raw = (text: string) => h.request('POST', '/customers', undefined, { raw: text, headers: { 'content-type': 'application/json' } })
    for (const body of [
      '{"turnover":"1.00","turnover":"1000000.00"}',
      '{"companyName":"A","\\u0063ompanyName":"B"}',
      `{"companyName":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    ]) {
      const r = await raw(body)
      assert.is(r.status, 400, body.slice(0, 60))
      assert.is(r.body.error_code, 400100, body.slice(0, 60))
      assert.equal(Object.keys(r.body), ['error', 'error_code', 'hint'])
    }
    assert.is((await h.request('GET', '/customers')).body.length, 0, 'nothing stored')
    const deepValue = await raw(`{"companyName":${'['.repeat(20)}${']'.repeat(20)}}`)
    assert.is(deepValue.body.error_code, 400101, 'within the limit the field check answers')
    assert.ok(deepValue.body.error.length < 200, 'the value is quoted briefly')
    assert.is((await raw('{"companyName":"A","tradingAs":"A"}')).status, 201)
  })
  test.run()
}
