import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import {
  add,
  formatMoney,
  fromUnits,
  increaseByPercent,
  moneyToNumber,
  moneyToNumberText,
  mulRatio,
  parseMoney,
  round,
  sum,
  type Money,
} from '../../core/money/money.js'

const test = suite('core/money')
const units = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }).map((u) => u as Money)

test('parse ∘ format is the identity on every amount', () => {
  fc.assert(fc.property(units, (m) => parseMoney(formatMoney(m)) === m))
})

test('a JSON number round-trips through parse and moneyToNumber', () => {
  fc.assert(fc.property(units, (m) => parseMoney(moneyToNumber(m)) === m))
})

test('moneyToNumber is the number of the amount’s text, beyond 2^53 ten-thousandths too', () => {
  const wide = fc.oneof(units, fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }), fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, -(2n ** 53n) + 1n, 1n, -1n, 0n))
  fc.assert(fc.property(wide, (m) => Object.is(moneyToNumber(m as Money), Number(formatMoney(m as Money)))), { numRuns: 20_000 })
  assert.is(JSON.stringify(moneyToNumber(-1234n as Money)), '-0.1234')
})

test('moneyToNumberText is the text of moneyToNumber, at and beyond 10^15 ten-thousandths too', () => {
  const edges = fc.constantFrom(0n, 1n, -1n, 10n, -10n, 9_999n, -9_999n, 10_000n, -10_000n, 10n ** 15n - 1n, -(10n ** 15n) + 1n, 10n ** 15n, -(10n ** 15n), 2n ** 53n)
  const wide = fc.oneof(units, edges, fc.bigInt({ min: -100_000n, max: 100_000n }), fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }))
  fc.assert(fc.property(wide, (m) => moneyToNumberText(m as Money) === String(moneyToNumber(m as Money))), { numRuns: 20_000 })
  assert.is(moneyToNumberText(-1234n as Money), '-0.1234')
  assert.is(moneyToNumberText(1_234_500n as Money), '123.45')
})

test('no float drift: 0.1 + 0.2 is exactly 0.3', () => {
  assert.is(add(parseMoney(0.1)!, parseMoney(0.2)!), parseMoney('0.3'))
  const tenths = Array.from({ length: 1000 }, () => parseMoney('0.1')!)
  assert.is(formatMoney(sum(tenths)), '100.0000')
})

test('refuses more than 4 decimals, non-finite numbers and junk', () => {
  for (const bad of ['1.23456', 1.23456, Infinity, NaN, '1e3', '', ' ', '1.', '.5', '--1', '0x10', null, true, [1], {}]) {
    assert.is(parseMoney(bad), null, `should refuse ${String(bad)}`)
  }
  assert.is(parseMoney(1e-5), null)
  assert.is(parseMoney('-0.0001'), -1n)
  assert.is(parseMoney(12), 120000n)
})

test('round half away from zero to 2 places', () => {
  assert.is(formatMoney(round(parseMoney('1.005')!, 2)), '1.0100')
  assert.is(formatMoney(round(parseMoney('1.0049')!, 2)), '1.0000')
  assert.is(formatMoney(round(parseMoney('-1.005')!, 2)), '-1.0100')
  fc.assert(
    fc.property(units, (m) => {
      const r = round(m, 2)
      const diff = r > m ? r - m : m - r
      return r % 100n === 0n && diff <= 50n
    }),
  )
})

test('mulRatio pro-rates exactly: 30.00 × 10/31 = 9.6774 (half up at the 4th place)', () => {
  assert.is(formatMoney(mulRatio(parseMoney('30')!, 10, 31)), '9.6774')
  // splitting a charge over every day of a period sums back within rounding of one unit per day
  fc.assert(
    fc.property(units, fc.integer({ min: 1, max: 366 }), (m, days) => {
      const parts = Array.from({ length: days }, () => mulRatio(m, 1, days))
      const total = sum(parts)
      const diff = total > m ? total - m : m - total
      return diff <= BigInt(days)
    }),
  )
})

test('increaseByPercent rounds half up to 4 places', () => {
  assert.is(formatMoney(increaseByPercent(parseMoney('10.0000')!, parseMoney('3.5')!)), '10.3500')
  assert.is(formatMoney(increaseByPercent(parseMoney('0.0333')!, parseMoney('5')!)), '0.0350')
  assert.is(formatMoney(fromUnits(-5n)), '-0.0005')
})

test.run()
