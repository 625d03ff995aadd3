import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { PartitionSplitter, wholeRun } from '../../core/billing/run-partitions.js'
import type { CustomerWeight } from '../../core/ports/run-partitions.js'

const test = suite('billing run partitions: customer ID ranges sized by features')

/** Customers with increasing IDs (gaps allowed) and their feature counts. */
const customers = fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 40 })), { maxLength: 200 }).map((steps) => {
  let id = 0
  return steps.map(([gap, features]): CustomerWeight => ({ id: String((id += gap)), features }))
})

const split = (list: readonly CustomerWeight[], target: number, pages: number, after = '0') => {
  const s = new PartitionSplitter(after, target)
  const size = Math.max(1, Math.ceil(list.length / pages))
  for (let i = 0; i < list.length; i += size) s.add(list.slice(i, i + size))
  return s.finish()
}

test('every customer is in exactly one partition; ranges are consecutive and the last is open-ended', () => {
  fc.assert(
    fc.property(customers, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 7 }), (list, target, pages) => {
      const parts = split(list, target, pages)
      assert.is(parts[0].afterCustomerID, '0')
      assert.is(parts.at(-1)!.lastCustomerID, null)
      for (let i = 1; i < parts.length; i++) assert.is(parts[i].afterCustomerID, parts[i - 1].lastCustomerID)
      for (const c of list) {
        const holding = parts.filter((p) => Number(c.id) > Number(p.afterCustomerID) && (p.lastCustomerID === null || Number(c.id) <= Number(p.lastCustomerID)))
        assert.is(holding.length, 1, `customer ${c.id}`)
      }
      assert.is(parts.reduce((n, p) => n + p.customersTotal, 0), list.length)
    }),
  )
})

test('a partition reaches the target by its last customer and not before; how the customers are paged does not matter', () => {
  fc.assert(
    fc.property(customers, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 7 }), (list, target, pages) => {
      const parts = split(list, target, pages)
      assert.equal(parts, split(list, target, 1))
      for (const p of parts.slice(0, -1)) {
        const inside = list.filter((c) => Number(c.id) > Number(p.afterCustomerID) && Number(c.id) <= Number(p.lastCustomerID))
        const weight = inside.reduce((n, c) => n + c.features + 1, 0)
        assert.ok(weight >= target, `${weight} < ${target}`)
        assert.ok(weight - (inside.at(-1)!.features + 1) < target, 'closed at the first customer reaching the target')
      }
    }),
  )
})

test('worked example: 5 features a customer, 12 a partition; a resumed run starts after its progress', () => {
  const list = [1, 2, 3, 4, 5].map((id) => ({ id: String(id + 10), features: 5 }))
  assert.equal(split(list, 12, 2, '10'), [
    { afterCustomerID: '10', lastCustomerID: '12', customersTotal: 2 },
    { afterCustomerID: '12', lastCustomerID: '14', customersTotal: 2 },
    { afterCustomerID: '14', lastCustomerID: null, customersTotal: 1 },
  ])
  // A run whose customers end exactly at a partition's end: that one becomes open-ended.
  assert.equal(split(list.slice(0, 4), 12, 1, '10'), [
    { afterCustomerID: '10', lastCustomerID: '12', customersTotal: 2 },
    { afterCustomerID: '12', lastCustomerID: null, customersTotal: 2 },
  ])
  assert.equal(split([], 12, 1), [{ afterCustomerID: '0', lastCustomerID: null, customersTotal: 0 }])
  assert.equal(wholeRun('0', 7), [{ afterCustomerID: '0', lastCustomerID: null, customersTotal: 7 }])
})

test.run()
