import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { topupDue } from '../../core/credit/auto-topups.js'
import { formatMoney, parseMoney, type Money } from '../../core/money/money.js'
import { defaultPresets } from '../../core/presets/presets.js'

const test = suite('core/auto-topups')
const m = (text: string) => parseMoney(text) as Money
const due = (amount: string | null, funds: string) => {
  const d = topupDue(defaultPresets, { autoTopupProfile: 'Top up when below £10', autoTopupAmount: amount === null ? null : m(amount) }, m(funds))
  return d && [formatMoney(d.threshold), formatMoney(d.amount)]
}

test('due below the threshold only; the amount asked is in whole pence, rounded up so the funds reach it', () => {
  assert.is(due(null, '10.0000'), null)
  assert.equal(due(null, '9.9999'), ['10.0000', '0.0100'])
  assert.equal(due(null, '6.5433'), ['10.0000', '3.4600'])
  assert.equal(due(null, '-2.5000'), ['10.0000', '12.5000'])
  assert.equal(due('25.00', '4.00'), ['10.0000', '25.0000'])
  assert.equal(due('12.3401', '4.00'), ['10.0000', '12.3500'])
  assert.is(topupDue(defaultPresets, { autoTopupProfile: 'None', autoTopupAmount: null }, m('-100')), null)
  assert.is(topupDue(defaultPresets, { autoTopupProfile: null, autoTopupAmount: null }, m('-100')), null)
})

test.run()
