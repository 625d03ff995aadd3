import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { callMinimumOf, decideInvoice, type InvoiceRulesCustomer } from '../../core/billing/invoice-rules.js'
import { fromUnits, type Money } from '../../core/money/money.js'

const test = suite('invoice rules: minimum charges (contract 10.4, 9.1)')
const PENNY = 100n
const HALF_PENNY = 50n
const unitsArb = fc.bigInt({ min: 0n, max: 100_000_000n })
const rules = (over: Partial<InvoiceRulesCustomer>): InvoiceRulesCustomer => ({
  emptyInvoiceAction: null,
  emptyInvoiceActionValue: null,
  lowInvoiceDetect: null,
  lowInvoiceDetectValue: null,
  lowInvoiceAction: null,
  lowInvoiceActionValue: null,
  ...over,
})
// The customer's values are JSON numbers with up to 4 places.
const numberOf = (units: bigint) => Number(units) / 10_000
const minimumOf = (d: ReturnType<typeof decideInvoice>): Money => (d.raise ? d.minimum : (0n as Money))

test('a minimum is whole pence within half a penny of what it tops up to, whatever the 4-place values', () => {
  fc.assert(
    fc.property(unitsArb, unitsArb, unitsArb, (value, net, calls) => {
      const empty = minimumOf(decideInvoice(rules({ emptyInvoiceAction: 'Charge Minimum', emptyInvoiceActionValue: numberOf(value) }), { lines: 0, net: 0n as Money, vat: 0n as Money, calls: 0n as Money }, false))
      assert.is(empty % PENNY, 0n)
      assert.ok(empty - value <= HALF_PENNY && value - empty <= HALF_PENNY)
      const low = rules({ lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: numberOf(value) + 1, lowInvoiceAction: 'Charge Minimum', lowInvoiceActionValue: numberOf(value) })
      const topUp = minimumOf(decideInvoice(low, { lines: 1, net: fromUnits(net), vat: 0n as Money, calls: 0n as Money }, false))
      assert.is(topUp % PENNY, 0n)
      if (net < value) assert.ok(net + topUp - value <= HALF_PENNY && value - (net + topUp) < HALF_PENNY)
      else assert.is(topUp, 0n)
      const gap = callMinimumOf(fromUnits(value), fromUnits(calls))
      assert.is(gap % PENNY, 0n)
      assert.ok(gap >= 0n && (calls >= value || calls + gap - value <= HALF_PENNY))
    }),
  )
})

test('examples: 9.995 charges 10.00; 1.00 topped up to 10.005 adds 9.01; calls of 0 under 5.5555 add 5.56', () => {
  const empty = decideInvoice(rules({ emptyInvoiceAction: 'Charge Minimum', emptyInvoiceActionValue: 9.995 }), { lines: 0, net: 0n as Money, vat: 0n as Money, calls: 0n as Money }, false)
  assert.is(minimumOf(empty), 100_000n)
  const low = rules({ lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 20, lowInvoiceAction: 'Charge Minimum', lowInvoiceActionValue: 10.005 })
  assert.is(minimumOf(decideInvoice(low, { lines: 1, net: 10_000n as Money, vat: 0n as Money, calls: 0n as Money }, false)), 90_100n)
  assert.is(callMinimumOf(55_555n as Money, 0n as Money), 55_600n)
})

test.run()
