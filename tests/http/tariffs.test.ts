import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`http tariffs and fixed fee tariffs [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('call tariffs: CRUD, required unique name, rate table under the tariff', async ({ h }) => {
    assert.is((await h.request('POST', '/tariffs', { description: 'no name' })).body.error_code, 400101)
    const t = await h.request('POST', '/tariffs', { name: 'Retail 2026', baseCost: 0.05, baseRoundSeconds: 60, tariffClass: 'Mobile' })
    assert.is(t.status, 201)
    assert.is(t.body.increaseOriginalID, null)
    assert.is((await h.request('POST', '/tariffs', { name: 'Retail 2026' })).body.error_code, 409001)
    const d = await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, {
      chargeBand: 'UK Mobile',
      timeBand: 'day',
      startDate: '2026-01-01',
      cost: '0.0825',
      costConnection: 0.01,
    })
    assert.is(d.status, 201, JSON.stringify(d.body))
    assert.is(d.body.tariffID, t.body.id)
    assert.is(d.body.cost, 0.0825)
    assert.is((await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { timeBand: 'night' })).body.error_code, 400101)
    assert.is((await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { cost: 0.00001 })).body.error_code, 400101)
    assert.is((await h.request('POST', '/tariffs/999999/tariffDetails', {})).body.error_code, 404001)
    assert.equal((await h.request('GET', `/tariffs/${t.body.id}/tariffDetails`)).body.map((x: any) => x.id), [d.body.id])
    const patched = await h.request('PATCH', `/tariffDetails/${d.body.id}`, { cost: 0.09 })
    assert.is(patched.body.cost, 0.09)
    assert.is((await h.request('PATCH', `/tariffDetails/${d.body.id}`, { tariffID: '999' })).body.error_code, 400102)
    assert.is((await h.request('DELETE', `/tariffDetails/${d.body.id}`)).status, 200)
    assert.equal((await h.request('GET', `/tariffs/${t.body.id}/tariffDetails`)).body, [])
  })

  test("a rate or charge in a tariff's Number field has at most 4 decimal places (contract 9.1), as a detail's cost: else 400101, never rounded when rated", async ({ h }) => {
    const refused = await h.request('POST', '/tariffs', { name: 'Per second', baseType: 'Per Second', baseCost: 0.00125 })
    assert.equal([refused.status, refused.body.error_code], [400, 400101])
    assert.match(refused.body.hint, /at most 4 decimal places/)
    const t = await h.request('POST', '/tariffs', { name: 'Per second', baseType: 'Per Second', baseCost: 0.0013, baseSurchargePayphoneOrigination: 0.25 })
    assert.equal([t.status, t.body.baseCost], [201, 0.0013])
    assert.is((await h.request('PATCH', `/tariffs/${t.body.id}`, { baseCostConnection: 0.01005 })).body.error_code, 400101)
    assert.is((await h.request('PATCH', `/tariffs/${t.body.id}`, { baseSurchargePayphoneOriginationConnection: 1e-7 })).body.error_code, 400101)
    // A markup's percentage and a count stay plain numbers: neither is an amount.
    assert.is((await h.request('PATCH', `/tariffs/${t.body.id}`, { fallbackMarkup: 100 / 3 })).status, 200)
    assert.is((await h.request('PATCH', `/tariffs/${t.body.id}`, { baseRoundSeconds: 0.5 })).status, 200)
    // A value stored before the rule (an archive, an older release) still round-trips unchanged.
    const { db, dialect } = h.platform.database
    await (db as any).updateTable('tariffs').set({ baseCost: 0.00125 }).where('id', '=', dialect.encodeId(t.body.id)).execute()
    const stored = (await h.request('GET', `/tariffs/${t.body.id}`)).body
    assert.is(stored.baseCost, 0.00125)
    const { id, createdStamp, updatedStamp, ...sent } = stored
    assert.is((await h.request('PATCH', `/tariffs/${t.body.id}`, { ...sent, description: 'sent back' })).status, 200)
    assert.is((await h.request('PATCH', `/tariffs/${t.body.id}`, { baseCost: 0.00135 })).body.error_code, 400101)
    const schema = (await h.request('GET', '/openapi.json')).body.components.schemas.CallTariff.properties.baseCost
    assert.equal([schema.type, schema.multipleOf], [['number', 'null'], 0.0001])
  })

  test("a call tariff's tariffClass: given only in the field of that class (Bespoke in either bespoke field), refused elsewhere by 400101", async ({ h }) => {
    const make = async (name: string, tariffClass?: string) => assert.is((await h.request('POST', '/tariffs', { name, ...(tariffClass ? { tariffClass } : {}) })).status, 201)
    await make('Mobile only', 'Mobile')
    await make('Bespoke only', 'Bespoke')
    await make('Any class')
    const c = (await h.request('POST', '/customers', {})).body.id
    const wrong = await h.request('POST', `/customers/${c}/numbers`, { number: '01632 976000', inboundTariff: 'Mobile only' })
    assert.is(wrong.status, 400, wrong.text)
    assert.is(wrong.body.error_code, 400101)
    assert.match(wrong.body.error, 'inboundTariff')
    assert.match(wrong.body.error, 'its tariffClass')
    assert.equal((await h.request('GET', `/customers/${c}/numbers`)).body, [], 'nothing written')
    const customerDefault = await h.request('PATCH', `/customers/${c}`, { defaultNationalTariff: 'Mobile only' })
    assert.is(customerDefault.body.error_code, 400101, customerDefault.text)
    const n = await h.request('POST', `/customers/${c}/numbers`, { number: '01632 976001', mobileTariff: 'Mobile only', bespokeTariff2: 'Bespoke only', nationalTariff: 'Any class' })
    assert.is(n.status, 201, n.text)
    assert.is((await h.request('PATCH', `/customers/${c}`, { defaultMobileTariff: 'Mobile only', defaultBespokeTariff1: 'Bespoke only' })).status, 200)
  })

  test('a tariffClass the presets add, which no field prices, restricts no field', async () => {
    const { defaultPresets } = await import('../../core/presets/presets.js')
    const lists = { ...defaultPresets.lists, tariffClasses: [...defaultPresets.lists.tariffClasses, 'Premium Rate'] }
    const other = await openHarness(target, { presets: { ...defaultPresets, lists } })
    try {
      assert.is((await other.request('POST', '/tariffs', { name: 'Premium', tariffClass: 'Premium Rate' })).status, 201)
      const c = (await other.request('POST', '/customers', {})).body.id
      const n = await other.request('POST', `/customers/${c}/numbers`, { number: '01632 976002', serviceNumbersTariff: 'Premium', nationalTariff: 'Premium' })
      assert.is(n.status, 201, n.text)
    } finally {
      await other.close()
    }
  })

  test('a tariff in use cannot be deleted (409002) until nothing names it; its rates go with it', async ({ h }) => {
    const t = (await h.request('POST', '/tariffs', { name: 'In Use' })).body
    await h.request('POST', `/tariffs/${t.id}/tariffDetails`, { chargeBand: 'UK' })
    const c = (await h.request('POST', '/customers', { defaultMobileTariff: 'In Use' })).body
    assert.is(c.defaultMobileTariff, 'In Use')
    const refused = await h.request('DELETE', `/tariffs/${t.id}`)
    assert.is(refused.status, 409)
    assert.is(refused.body.error_code, 409002)
    assert.ok(refused.body.error.includes(`customer ${c.id}`))
    const n = (await h.request('POST', `/customers/${c.id}/numbers`, { nationalTariff: 'In Use' })).body
    await h.request('PATCH', `/customers/${c.id}`, { defaultMobileTariff: null })
    assert.is((await h.request('DELETE', `/tariffs/${t.id}`)).body.error_code, 409002, 'the number still uses it')
    const f = (await h.request('POST', `/numbers/${n.id}/features`, { mobileTariff: 'In Use' })).body
    await h.request('PATCH', `/numbers/${n.id}`, { nationalTariff: null })
    assert.is((await h.request('DELETE', `/tariffs/${t.id}`)).body.error_code, 409002, 'the feature still uses it')
    await h.request('PATCH', `/features/${f.id}`, { mobileTariff: null })
    const ok = await h.request('DELETE', `/tariffs/${t.id}`)
    assert.is(ok.status, 200)
    assert.is((await h.request('GET', `/tariffs/${t.id}`)).body.error_code, 404001)
    assert.is((await h.request('POST', '/customers', { defaultMobileTariff: 'In Use' })).body.error_code, 400101, 'the name is gone')
  })

  test('a parent tariff cannot be deleted (409002) while a tariff names it as its parent, by ID as rating reads it', async ({ h }) => {
    for (const [path, field] of [['/tariffs', 'parentTariff'], ['/fixedFeeTariffs', 'parentFixedFeeTariff']] as const) {
      const parent = (await h.request('POST', path, { name: `Lender ${field}` })).body
      const child = (await h.request('POST', path, { name: `Borrower ${field}`, [field]: ` ${parent.id} ` })).body
      const refused = await h.request('DELETE', `${path}/${parent.id}`)
      assert.is(refused.body.error_code, 409002, refused.text)
      assert.ok(refused.body.error.includes(`${child.id} (${field})`), refused.body.error)
      assert.is((await h.request('GET', `${path}/${child.id}`)).body[field], ` ${parent.id} `, 'the child keeps its parent')
      assert.is((await h.request('PATCH', `${path}/${child.id}`, { [field]: null })).status, 200)
      assert.is((await h.request('DELETE', `${path}/${parent.id}`)).status, 200)
    }
  })

  test('renaming a tariff carries the new name to its users', async ({ h }) => {
    const t = (await h.request('POST', '/fixedFeeTariffs', { name: 'Old Name' })).body
    const c = (await h.request('POST', '/customers', { fixedFeeTariff: 'Old Name' })).body
    const s = (await h.request('POST', `/customers/${c.id}/services`, { fixedFeeTariff: 'Old Name' })).body
    const r = await h.request('PATCH', `/fixedFeeTariffs/${t.id}`, { name: 'New Name' })
    assert.is(r.body.name, 'New Name')
    assert.is((await h.request('GET', `/customers/${c.id}`)).body.fixedFeeTariff, 'New Name')
    assert.is((await h.request('GET', `/services/${s.id}`)).body.fixedFeeTariff, 'New Name')
    assert.is((await h.request('PATCH', `/fixedFeeTariffs/${t.id}`, { name: null })).body.error_code, 400101)
  })

  test('fixed fee tariffs: rate rows with matching lists; increase fields are read-only', async ({ h }) => {
    const t = (await h.request('POST', '/fixedFeeTariffs', { name: 'FF 1', wholesaleForCarrierIDs: ['Gamma'] })).body
    assert.equal(t.wholesaleForCarrierIDs, ['Gamma'])
    const d = await h.request('POST', `/fixedFeeTariffs/${t.id}/fixedFeeTariffDetails`, {
      description: 'Line rental',
      featureTypes: ['Line Rental'],
      serviceCharge: '12.50',
      connectionCharge: 99,
    })
    assert.is(d.status, 201, JSON.stringify(d.body))
    assert.is(d.body.fixedFeeTariffID, t.id)
    assert.equal(d.body.featureTypes, ['Line Rental'])
    assert.is((await h.request('PATCH', `/fixedFeeTariffs/${t.id}`, { increasePercent: 5 })).body.error_code, 400102)
    assert.is((await h.request('DELETE', `/fixedFeeTariffs/${t.id}`)).status, 200)
    assert.is((await h.request('GET', `/fixedFeeTariffDetails/${d.body.id}`)).body.error_code, 404001)
  })

  test('customerID and the parent tariff name existing rows (contract 4): else 400101 naming the field, on create and PATCH; a tariff keeps what it has', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    for (const [kind, parentField] of [['tariffs', 'parentTariff'], ['fixedFeeTariffs', 'parentFixedFeeTariff']] as const) {
      const parent = (await h.request('POST', `/${kind}`, { name: `Ref parent ${kind}` })).body.id
      for (const [field, value] of [['customerID', '424242'], [parentField, '777777'], [parentField, 'not an ID']] as const) {
        const refused = await h.request('POST', `/${kind}`, { name: `Ghost ${kind}`, [field]: value })
        assert.is(refused.body.error_code, 400101, refused.text)
        assert.match(refused.body.error, `"${field}"`)
      }
      assert.equal((await h.request('GET', `/${kind}?limit=1000`)).body.filter((x: any) => x.name === `Ghost ${kind}`), [], 'nothing written')
      const t = await h.request('POST', `/${kind}`, { name: `Ref child ${kind}`, customerID: c, [parentField]: parent })
      assert.is(t.status, 201, t.text)
      assert.is((await h.request('PATCH', `/${kind}/${t.body.id}`, { customerID: '424242' })).body.error_code, 400101)
      assert.is((await h.request('PATCH', `/${kind}/${t.body.id}`, { [parentField]: '777777' })).body.error_code, 400101)
      assert.is((await h.request('PATCH', `/${kind}/${t.body.id}`, { customerID: null, [parentField]: '' })).status, 200, 'none named')
      // A row written before the check (straight to the store) keeps its reference through GET → PATCH.
      await h.platform.context.store.repository(kind).update(t.body.id, { customerID: '424242', [parentField]: '777777' } as never)
      const got = (await h.request('GET', `/${kind}/${t.body.id}`)).body
      const back = await h.request('PATCH', `/${kind}/${t.body.id}`, { ...got, description: 'kept' })
      assert.is(back.status, 200, back.text)
      assert.equal([back.body.customerID, back.body[parentField]], ['424242', '777777'])
    }
  })

  test.run()
}
