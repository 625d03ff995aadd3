import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { errorCodeOf, formatMoney, isBillingError, parseMoney, toWireMoney, type Money } from '../../index.js'

test('parseMoney takes the API decimals, exactly; anything else is the API’s invalid_field', () => {
  assert.is(parseMoney('12.50'), 125_000n as Money)
  assert.is(parseMoney(0.1), 1_000n as Money)
  assert.is(parseMoney('-0.0001'), -1n as Money)
  // The largest amount either way is the API's (core/money's MAX_MONEY less a unit); beyond it the API refuses.
  assert.is(parseMoney('99999999999.9999'), 999_999_999_999_999n as Money)
  assert.is(parseMoney('-99999999999.9999'), -999_999_999_999_999n as Money)
  for (const bad of ['12.345678', '1e3', 'ten', '', Number.NaN, '12,50', '100000000000', '-100000000000', 1e11, '1' + '0'.repeat(40)]) {
    try {
      parseMoney(bad)
      assert.unreachable(`${String(bad)} was taken`)
    } catch (error) {
      assert.ok(isBillingError(error), String(error))
      assert.is(errorCodeOf(error), 400101)
      assert.ok((error as Error).message.length < 200, 'the value is quoted short')
    }
  }
})

test('formatMoney shows at least the places asked for and never rounds', () => {
  assert.is(formatMoney(125_000n as Money), '12.50')
  assert.is(formatMoney(125_000n as Money, 0), '12.5')
  assert.is(formatMoney(120_000n as Money, 0), '12')
  assert.is(formatMoney(1_234n as Money), '0.1234')
  assert.is(formatMoney(-5_000n as Money, 4), '-0.5000')
  assert.is(formatMoney(0n as Money), '0.00')
})

test('parse, format and the wire number agree over every amount', () => {
  const amounts = fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }).map((u) => u as Money)
  fc.assert(
    fc.property(amounts, fc.constantFrom(0, 1, 2, 3, 4) as fc.Arbitrary<0 | 1 | 2 | 3 | 4>, (m, places) => {
      assert.is(parseMoney(formatMoney(m, places)), m)
      assert.is(parseMoney(toWireMoney(m)), m)
    }),
  )
})

test.run()
