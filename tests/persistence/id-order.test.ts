import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { compareIds, inIdOrder } from '../../adapters/persistence/id-order.js'

const id = fc.bigInt({ min: 1n, max: 9_999_999_999_999_999n }).map(String)

test('IDs compare as the numbers they are, beyond 2^53 too', () => {
  fc.assert(
    fc.property(id, id, (a, b) => {
      const expected = BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0
      assert.is(Math.sign(compareIds(a, b)), expected)
    }),
  )
  assert.ok(compareIds('9', '10') < 0)
  assert.ok(compareIds('9007199254740993', '9007199254740992') > 0)
})

test('inIdOrder sorts by ID; rows already in order come back as they are', () => {
  fc.assert(
    fc.property(fc.array(id, { maxLength: 60 }), (ids) => {
      const items = ids.map((i, n) => ({ id: i, n }))
      const sorted = inIdOrder([...items])
      assert.equal(sorted.map((x) => x.id), [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)))
      const again = inIdOrder(sorted)
      assert.is(again, sorted)
    }),
  )
})

test.run()
