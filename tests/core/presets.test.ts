import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogue } from '../../core/fields/catalogue.js'
import { InputValidator } from '../../core/input/validate.js'
import type { BillingError } from '../../core/errors.js'
import { defaultPresets, mergePresets } from '../../core/presets/presets.js'
import { requiresProtection, withholds } from '../../core/presets/regulator-protection.js'

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
  // A VAT rate named without its percentage would charge 0% on everything given it.
  assert.throws(() => mergePresets({ lists: { vatRates: ['VAT 20%', 'Zero Rated'] } }), /"VAT 20%" has no percentage in vatRatePercents/)
  assert.throws(() => mergePresets({ extend: { vatRates: ['Old 17.5%'] } }), /Old 17\.5%/)
  assert.ok(mergePresets({ lists: { vatRates: ['VAT 20%'] }, vatRatePercents: { 'VAT 20%': '20' } }).lists.vatRates.includes('VAT 20%'))
})

// Audit: a callbackSecret was only checked for 16 characters and then base64-decoded leniently:
// '!!!!!!!!!!!!!!!!' keyed the HMAC with no bytes at all, so anyone could sign a provider's callback.
test('a provider callbackSecret must be whsec_ and strict base64 (or the base64 alone) of a key of at least 16 bytes', () => {
  const withSecret = (callbackSecret: string) => ({ paymentProviders: defaultPresets.paymentProviders.map((p) => ({ ...p, callbackSecret })) })
  const key16 = Buffer.alloc(16, 7).toString('base64')
  const refused = ['!!!!!!!!!!!!!!!!', 'x'.repeat(16), 'whsec_!!!!!!!!!!!!!!!!', `whsec_${Buffer.alloc(15, 7).toString('base64')}`, `whsec_${key16.replace(/=+$/, '')}`, `whsec_${Buffer.alloc(18, 0xfb).toString('base64url')}`, ` whsec_${key16}`, `whsec_${key16}\n`]
  for (const secret of refused) {
    assert.throws(() => mergePresets(withSecret(secret)), (e: Error) => /paymentProviders\.0\.callbackSecret: must be whsec_ followed by standard base64/.test(e.message) && !e.message.includes(secret), JSON.stringify(secret))
  }
  for (const secret of [`whsec_${key16}`, key16, `whsec_${Buffer.from('a provider callback secret, 32b!').toString('base64')}`]) {
    assert.is(mergePresets(withSecret(secret)).paymentProviders[0].callbackSecret, secret)
  }
})

test('a list the engine branches on may be narrowed, not extended: its fields are typed by its names', () => {
  const narrowed = mergePresets({ lists: { serviceChargeIntervals: ['Monthly', 'Quarterly'] } })
  assert.equal(narrowed.lists.serviceChargeIntervals, ['Monthly', 'Quarterly'])
  assert.throws(() => mergePresets({ extend: { serviceChargeIntervals: ['Fortnightly'] } }), /serviceChargeIntervals.*Fortnightly/)
  assert.throws(() => mergePresets({ lists: { billingRunStatuses: ['Pending', 'Started'] } }), /billingRunStatuses.*Started/)
  assert.throws(() => mergePresets({ extend: { timeBands: ['night'] } }), /timeBands/)
  // an open list takes any name
  assert.ok(mergePresets({ extend: { transactionTypes: ['Late Fee'] } }).lists.transactionTypes.includes('Late Fee'))
  // every field whose values the engine fixes names one of these lists, and its default list is exactly them
  for (const r of Object.values(catalogue)) {
    for (const f of r.fields) {
      if (f.values && f.list) assert.equal(defaultPresets.lists[f.list], [...f.values], `${r.name}.${f.name}`)
    }
  }
})

test('core hints name no URL: a failure says where to read more, the HTTP face says how', () => {
  const v = new InputValidator(defaultPresets)
  const failure = (run: () => unknown) => {
    try {
      run()
    } catch (e) {
      return e as BillingError
    }
    throw new Error('no failure')
  }
  const unknown = failure(() => v.validateInput(catalogue.customers, { colour: 'red' }))
  assert.equal([unknown.code, unknown.see], ['invalid_field', { fieldsOf: 'customers' }])
  const misspelt = failure(() => v.validateInput(catalogue.customers, { FirstNames: 'Ada' }))
  assert.equal([misspelt.see, misspelt.hint], [undefined, 'Property names are case-sensitive: did you mean "firstnames"?'])
  const countries = Array.from({ length: 20 }, (_, i) => `C${i}`)
  const long = new InputValidator(mergePresets({ lists: { countries } }))
  const manyNames = failure(() => long.validateInput(catalogue.customers, { country: 'Narnia' }))
  assert.equal(manyNames.see, { presetsOf: 'customers' })
  const fewNames = failure(() => v.validateInput(catalogue.customers, { GDPRPECRConsentGiven: 'Maybe' }))
  assert.equal(fewNames.see, undefined, 'every allowed name is in the hint')
  for (const e of [unknown, misspelt, manyNames, fewNames]) assert.not.match(e.hint, /\/|GET /)
})

test('unprotectedRegulatorClasses: shipped Not Protected; names must be regulatorProtectionClasses; blank and every other class require protection', () => {
  assert.equal(defaultPresets.lists.unprotectedRegulatorClasses, ['Not Protected'])
  const needs = (presets: typeof defaultPresets, cls: string | null) => requiresProtection(presets, { regulatorProtectionClass: cls })
  assert.equal([null, '', 'Consumer', 'Microenterprise', 'Not Protected'].map((c) => needs(defaultPresets, c)), [true, true, true, true, false])
  const extended = mergePresets({ extend: { unprotectedRegulatorClasses: ['Microenterprise'] } })
  assert.equal([needs(extended, 'Microenterprise'), needs(extended, 'Not Protected'), needs(extended, 'Consumer')], [false, false, true])
  const everyone = mergePresets({ lists: { unprotectedRegulatorClasses: [] } })
  assert.is(needs(everyone, 'Not Protected'), true)
  assert.throws(() => mergePresets({ lists: { unprotectedRegulatorClasses: ['Not protected'] } }), /unprotectedRegulatorClasses.*"Not protected".*regulatorProtectionClasses/)
  assert.throws(() => mergePresets({ lists: { regulatorProtectionClasses: ['Residential', 'Business'], unprotectedRegulatorClasses: ['Not Protected'] } }), /unprotectedRegulatorClasses/)
  // Classes replaced without naming the unprotected ones: the shipped name is gone, so everyone is protected (never fewer).
  const replaced = mergePresets({ lists: { regulatorProtectionClasses: ['Residential', 'Business'] } })
  assert.equal(replaced.lists.unprotectedRegulatorClasses, [])
  const own = mergePresets({ lists: { regulatorProtectionClasses: ['Residential', 'Business'], unprotectedRegulatorClasses: ['Business'] } })
  assert.equal([needs(own, 'Business'), needs(own, 'Residential')], [false, true])
})

test('regulatorProtectedActions: shipped none, as contract 15.2 cuts off any customer a profile says; a platform names suspend, bar or both', () => {
  const blank = { regulatorProtectionClass: null }
  assert.equal(defaultPresets.lists.regulatorProtectedActions, [])
  assert.equal([withholds(defaultPresets, blank, 'suspend'), withholds(defaultPresets, blank, 'bar')], [false, false])
  const suspendOnly = mergePresets({ lists: { regulatorProtectedActions: ['suspend'] } })
  assert.equal([withholds(suspendOnly, blank, 'suspend'), withholds(suspendOnly, blank, 'bar'), withholds(suspendOnly, { regulatorProtectionClass: 'Not Protected' }, 'suspend')], [true, false, false])
  assert.throws(() => mergePresets({ lists: { regulatorProtectedActions: ['reminder'] } }), /regulatorProtectedActions names "reminder"; it may name suspend, bar/)
})

test('autoTopupThresholds: a threshold per profile; a file’s list is the list, and a name it lists without one never tops up', () => {
  assert.equal(Object.entries(defaultPresets.autoTopupThresholds), [['Top up when below £10', 100_000n], ['Top up when below £50', 500_000n]])
  // Contract 4: a presets file replaces any list; one that loaded before thresholds existed still loads.
  const replaced = mergePresets({ lists: { autoTopupProfiles: ['None', 'Weekly', 'Top up when below £10'] } })
  assert.equal(replaced.lists.autoTopupProfiles, ['None', 'Weekly', 'Top up when below £10'], 'the names it left out stay out')
  assert.equal(Object.keys(replaced.autoTopupThresholds), ['Top up when below £10'], 'Weekly has none: it never tops up')
  const extendedOnly = mergePresets({ extend: { autoTopupProfiles: ['Top up when below £5'] } })
  assert.equal(Object.keys(extendedOnly.autoTopupThresholds), ['Top up when below £10', 'Top up when below £50'])
  assert.throws(() => mergePresets({ autoTopupThresholds: { None: '5.00' } }), /autoTopupThresholds\.None: "None" never tops up/)
  assert.throws(() => mergePresets({ autoTopupThresholds: { Low: 'ten pounds' } }), /autoTopupThresholds\.Low: an amount/)
  const own = mergePresets({ autoTopupThresholds: { 'Below £20': '20.00' } })
  assert.equal(own.lists.autoTopupProfiles, ['None', 'Below £20'], 'a map given without its list is the list, with None')
  assert.is(own.autoTopupThresholds['Below £20'], 200_000n)
  const extended = mergePresets({ extend: { autoTopupProfiles: ['Top up when below £5'] }, autoTopupThresholds: { 'Top up when below £5': '5', 'Top up when below £10': '10' } })
  assert.equal(extended.lists.autoTopupProfiles, ['None', 'Top up when below £10', 'Top up when below £50', 'Top up when below £5'])
  assert.equal(Object.keys(extended.autoTopupThresholds), ['Top up when below £5', 'Top up when below £10'], 'a map given is the thresholds: £50 now never tops up')
})

test('contractEndNoticeDays: shipped 40 (Ofcom C1.3: 10 to 40 days before); any whole number of days from 1 to 365, else the start stops', () => {
  assert.is(defaultPresets.contractEndNoticeDays, 40)
  assert.is(mergePresets({ contractEndNoticeDays: 90 }).contractEndNoticeDays, 90)
  assert.is(mergePresets({ contractEndNoticeDays: 1 }).contractEndNoticeDays, 1)
  assert.is(mergePresets({ contractEndNoticeDays: 365 }, mergePresets({ contractEndNoticeDays: 90 })).contractEndNoticeDays, 365)
  assert.is(mergePresets({}, mergePresets({ contractEndNoticeDays: 90 })).contractEndNoticeDays, 90, 'a file without it keeps the base')
  assert.throws(() => mergePresets({ contractEndNoticeDays: 0 }), /contractEndNoticeDays: at least 1 day/)
  assert.throws(() => mergePresets({ contractEndNoticeDays: 366 }), /contractEndNoticeDays: at most 365 days/)
  assert.throws(() => mergePresets({ contractEndNoticeDays: 10.5 }), /contractEndNoticeDays: a whole number of days/)
  assert.throws(() => mergePresets({ contractEndNoticeDays: '40' }), /contractEndNoticeDays/)
})

test('every preset field of every resource names a list that exists', () => {
  for (const r of Object.values(catalogue)) {
    for (const f of r.fields) if (f.list) assert.ok(defaultPresets.lists[f.list], `${r.name}.${f.name} → ${f.list}`)
  }
})

test.run()
