import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { profilePercent } from '../../core/presets/commission-profiles.js'
import { defaultPresets, mergePresets } from '../../core/presets/presets.js'
import { formatMoney } from '../../core/money/money.js'

/** The presets map `commissionProfiles` (contract 16.3), declared as the other maps are. */
const test = suite('core/presets commission profiles')

const percent = (p: Parameters<typeof profilePercent>[0], name: string | null) => {
  const x = profilePercent(p, name)
  return x === null ? null : formatMoney(x)
}

test('the shipped names each have an entry; None earns nothing', () => {
  assert.equal(defaultPresets.lists.commissionProfiles, ['None', 'Standard Dealer', 'Premium Dealer', 'Internal Sales'])
  assert.equal(defaultPresets.lists.commissionProfiles.map((n) => percent(defaultPresets, n)), [null, '5.0000', '10.0000', '2.5000'])
  assert.is(percent(defaultPresets, null), null)
  assert.is(percent(defaultPresets, 'Gone'), null)
})

test('a file replaces the map and its names become the list; bad percentages are refused', () => {
  const p = mergePresets({ commissionProfiles: { Reseller: { percent: '7.5' }, None: {} } })
  assert.equal(p.lists.commissionProfiles, ['Reseller', 'None'])
  assert.is(percent(p, 'Reseller'), '7.5000')
  assert.throws(() => mergePresets({ commissionProfiles: { Bad: { percent: '101' } } }), /commissionProfiles/)
  assert.throws(() => mergePresets({ commissionProfiles: { Bad: { percent: 'five' } } }), /commissionProfiles/)
})

test.run()
