import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogue } from '../../core/fields/catalogue.js'
import { InputValidator } from '../../core/fields/validate.js'
import { defaultPresets, mergePresets } from '../../core/presets/presets.js'

const test = suite('core/presets')

test('the default status list has the names the contract requires', () => {
  for (const s of ['Active', 'Dropped', 'Suspended', 'Ex-Customer', 'Final Bill', 'Active - Do Not Bill', 'Non-Billable']) {
    assert.ok(defaultPresets.lists.statuses.includes(s), s)
  }
})

test('a presets file replaces lists, extends lists, and configures VAT and portal profiles', () => {
  const p = mergePresets({
    lists: { titles: ['Capt', 'Dr'] },
    extend: { statuses: ['Porting In'] },
    vatRatePercents: { 'Standard 20%': '20' },
    portalProfiles: { 'Standard Portal': ['cardPayment'] },
  })
  assert.equal(p.lists.titles, ['Capt', 'Dr'])
  assert.ok(p.lists.statuses.includes('Porting In') && p.lists.statuses.includes('Active'))
  assert.equal(p.portalProfiles['Standard Portal'], ['cardPayment'])
  const v = new InputValidator(p)
  const title = catalogue.customers.byName.get('title')!
  assert.is(v.parseField(catalogue.customers, title, 'Capt'), 'Capt')
  assert.throws(() => v.parseField(catalogue.customers, title, 'Mr'), /title/)
})

test('a malformed presets file is refused with every problem named', () => {
  assert.throws(() => mergePresets({ lists: { nosuchlist: ['x'] } }), /nosuchlist/)
  assert.throws(() => mergePresets({ lists: { titles: 'Mr' } }), /titles/)
  assert.throws(() => mergePresets({ colours: [] }), /colours|invalid/)
  assert.throws(() => mergePresets({ lists: { statuses: ['Dropped'] } }), /Active/)
  assert.throws(() => mergePresets({ vatRatePercents: { x: 'twenty' } }), /vatRatePercents/)
})

test('every preset field of every resource names a list that exists', () => {
  for (const r of Object.values(catalogue)) {
    for (const f of r.fields) if (f.list) assert.ok(defaultPresets.lists[f.list], `${r.name}.${f.name} → ${f.list}`)
  }
})

test.run()
