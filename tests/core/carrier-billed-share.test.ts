import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { billedShare } from '../../core/carrier-bills/billed-share.js'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { parseMoney, type Money } from '../../core/money/money.js'

const test = suite("core/carrier-bills: what a row billed for a carrier bill's period (contract 17.4)")
const m = (s: string) => parseMoney(s)!
const d = (s: string) => s as DateOnly

test("a yearly charge counts its days in the month, not its whole year; a row outside counts nothing; a one-day row inside counts whole", () => {
  const year = { amount: m('120.00'), dateFrom: d('2026-01-01'), dateTo: d('2026-12-31') }
  assert.is(billedShare(year, d('2026-02-01'), d('2026-02-28')), m('9.21')) // 120 × 28 / 365 = 9.2054…
  assert.is(billedShare({ amount: m('30.00'), dateFrom: d('2026-01-01'), dateTo: d('2026-03-31') }, d('2026-02-01'), d('2026-02-28')), m('9.33'))
  assert.is(billedShare({ amount: m('10.00'), dateFrom: d('2026-01-01'), dateTo: d('2026-01-31') }, d('2026-02-01'), d('2026-02-28')), 0n)
  assert.is(billedShare({ amount: m('-5.00'), dateFrom: d('2026-02-10'), dateTo: d('2026-02-10') }, d('2026-02-01'), d('2026-02-28')), m('-5.00'))
})

test('property: the shares of consecutive ranges covering a row add up to its amount, each off by at most half a penny', () => {
  const day = fc.integer({ min: 0, max: 800 })
  fc.assert(
    fc.property(fc.bigInt({ min: -10_000_000n, max: 10_000_000n }), day, fc.integer({ min: 0, max: 400 }), fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }), (units, start, length, cuts) => {
      const dateFrom = addDays(d('2025-01-01'), start)
      const row = { amount: units as Money, dateFrom, dateTo: addDays(dateFrom, length) }
      // Ranges from a little before the row to past its end, end to end.
      let from = addDays(dateFrom, -3)
      let total = 0n
      for (let i = 0; from <= row.dateTo; i++) {
        const to = addDays(from, cuts[i % cuts.length] - 1)
        total += billedShare(row, from, to)
        from = addDays(to, 1)
      }
      const ranges = BigInt(length + 4)
      const off = total - units
      return (off < 0n ? -off : off) <= 50n * ranges && billedShare(row, dateFrom, row.dateTo) === row.amount
    }),
  )
})

test.run()
