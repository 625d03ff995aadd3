import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { add, sum, ZERO, type Money } from '../../core/money/money.js'
import { CurrencyTotals } from '../../core/reports/currency-totals.js'

/**
 * The one helper every report sums its totals with (margin, journals, commission statements):
 * per currency exactly the sum of that currency's lines, in code order, and `all()` every line's,
 * however the lines are split between `add` and `of`.
 */
const test = suite('core/reports currency totals')

const units = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }).map((u) => u as Money)
const line = fc.record({ currency: fc.constantFrom('GBP', 'EUR', 'USD', 'CHF'), net: units, VAT: units, viaOf: fc.boolean() })

test('each currency is the exact sum of its lines, in code order; all() is every line', () => {
  fc.assert(
    fc.property(fc.array(line, { maxLength: 60 }), (lines) => {
      const totals = new CurrencyTotals(['net', 'VAT'] as const)
      for (const l of lines) {
        if (!l.viaOf) {
          totals.add(l.currency, l)
          continue
        }
        const s = totals.of(l.currency)
        s.net = add(s.net, l.net)
        s.VAT = add(s.VAT, l.VAT)
      }
      const currencies = [...new Set(lines.map((l) => l.currency))].sort()
      const of = (c: string | null, f: 'net' | 'VAT') => sum(lines.filter((l) => c === null || l.currency === c).map((l) => l[f]))
      assert.equal(
        totals.byCurrency(),
        currencies.map((c) => ({ currency: c, sums: { net: of(c, 'net'), VAT: of(c, 'VAT') } })),
      )
      assert.equal(totals.all(), { net: of(null, 'net'), VAT: of(null, 'VAT') })
    }),
  )
})

test('none of its answers is its running sums: adding after reading leaves what was read alone', () => {
  const totals = new CurrencyTotals(['commission'] as const)
  totals.add('GBP', { commission: 300n as Money })
  const [read] = totals.byCurrency()
  const all = totals.all()
  totals.add('GBP', { commission: 100n as Money })
  assert.equal([read.sums.commission, all.commission, totals.all().commission], [300n, 300n, 400n])
  assert.equal(new CurrencyTotals(['commission'] as const).all(), { commission: ZERO })
})

test.run()
