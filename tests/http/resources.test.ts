import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogue } from '../../core/fields/catalogue.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const wire = (name: keyof typeof catalogue) => catalogue[name].fields.filter((f) => !f.internal).map((f) => f.name).sort()
const ids = (body: any[]) => body.map((x) => x.id)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`http numbers, services, features [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('numbers: scoped create with every field present, get, PATCH, list and scoped list', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'N-1' })).body
    const n = await h.request('POST', `/customers/${c.id}/numbers/`, { number: '01632 960-001', numberType: 'Geographic', lines: 2 })
    assert.is(n.status, 201, JSON.stringify(n.body))
    assert.is(n.headers.get('location'), `/backend/api/v1/numbers/${n.body.id}`)
    assert.equal(Object.keys(n.body).sort(), wire('numbers'))
    assert.is(n.body.customerID, c.id)
    assert.is(n.body.isDropped, false)
    assert.equal(n.body.customerProducts, [])
    const patched = await h.request('PATCH', `/numbers/${n.body.id}`, { description: 'Main line', lines: null })
    assert.is(patched.body.description, 'Main line')
    assert.is(patched.body.lines, null)
    assert.is((await h.request('PATCH', `/numbers/${n.body.id}`, { customerID: '999' })).body.error_code, 400102)
    assert.equal(ids((await h.request('GET', `/customers/${c.id}/numbers`)).body), [n.body.id])
    assert.ok(ids((await h.request('GET', '/numbers')).body).includes(n.body.id))
    const missing = await h.request('POST', '/customers/999999/numbers', { number: '1' })
    assert.is(missing.status, 404)
    assert.is(missing.body.error_code, 404001)
    assert.is((await h.request('GET', '/customers/999999/numbers')).body.error_code, 404001)
    assert.is((await h.request('GET', '/customers/999999/numbers?bogus=1')).body.error_code, 404001, 'the parent is checked first')
  })

  test('number search ignores spaces and dashes on both sides; one match or []', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'N-2' })).body
    const n = (await h.request('POST', `/customers/${c.id}/numbers`, { number: '020 7946-0123', numberType: 'Mobile', CRMReference: 'NUM-CRM' })).body
    for (const q of ['02079460123', '020%207946%200123', '020-7946-0123', '0207-946-0123']) {
      assert.equal(ids((await h.request('GET', `/numbers?number=${q}`)).body), [n.id], q)
    }
    assert.equal((await h.request('GET', '/numbers?number=0207946012')).body, [])
    assert.equal(ids((await h.request('GET', `/customers/${c.id}/numbers?number=02079460123`)).body), [n.id])
    assert.equal(ids((await h.request('GET', '/numbers?CRMReference=NUM-CRM')).body), [n.id])
    assert.equal((await h.request('GET', '/numbers?CRMReference=nope')).body, [])
    assert.ok(ids((await h.request('GET', '/numbers?numberType=Mobile')).body).includes(n.id))
    assert.not.ok(ids((await h.request('GET', '/numbers?numberType=Geographic')).body).includes(n.id))
    const dup = await h.request('POST', `/customers/${c.id}/numbers`, { CRMReference: 'NUM-CRM' })
    assert.is(dup.body.error_code, 409001)
  })

  test('services and serviceType filter; features on customers, numbers and services with owner IDs', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'N-3' })).body
    const s = (await h.request('POST', `/customers/${c.id}/services`, { serviceType: 'Broadband', serviceName: 'FTTP 1' })).body
    assert.equal(Object.keys(s).sort(), wire('services'))
    assert.equal(ids((await h.request('GET', `/services?serviceType=Broadband`)).body), [s.id])
    const n = (await h.request('POST', `/customers/${c.id}/numbers`, { number: '0161 496 0000' })).body
    const fc = (await h.request('POST', `/customers/${c.id}/features`, { featureType: 'Support', serviceCharge: '10.00' })).body
    const fn = (await h.request('POST', `/numbers/${n.id}/features`, { featureType: 'Line Rental', serviceCharge: 15.99 })).body
    const fs = (await h.request('POST', `/services/${s.id}/features`, { featureType: 'Static IP' })).body
    assert.equal(Object.keys(fc).sort(), wire('features'))
    assert.equal([fc.customerID, fc.numberID, fc.serviceID], [c.id, null, null])
    assert.equal([fn.customerID, fn.numberID, fn.serviceID], [c.id, n.id, null])
    assert.equal([fs.customerID, fs.numberID, fs.serviceID], [c.id, null, s.id])
    assert.is(fn.serviceCharge, 15.99)
    assert.equal(ids((await h.request('GET', `/customers/${c.id}/features`)).body), [fc.id])
    assert.equal(ids((await h.request('GET', `/customers/${c.id}/features?includeNumbers`)).body), [fc.id, fn.id])
    assert.equal(ids((await h.request('GET', `/customers/${c.id}/features?includeServices=true`)).body), [fc.id, fs.id])
    assert.equal(ids((await h.request('GET', `/customers/${c.id}/features?includeNumbers&includeServices`)).body), [fc.id, fn.id, fs.id])
    assert.equal(ids((await h.request('GET', `/numbers/${n.id}/features`)).body), [fn.id])
    assert.equal(ids((await h.request('GET', `/services/${s.id}/features`)).body), [fs.id])
    assert.equal(ids((await h.request('GET', `/features?featureType=Static%20IP`)).body), [fs.id])
    assert.is((await h.request('GET', `/numbers/${n.id}/features?includeNumbers`)).body.error_code, 400103)
    assert.is((await h.request('POST', '/numbers/999999/features', {})).body.error_code, 404001)
  })

  test('a PATCH reads its row once, inside its transaction, and the update itself answers it (balance and all)', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { lastname: 'Once' })).body
    await h.request('POST', `/customers/${c.id}/transactions`, { transactionType: 'Debit Note', amount: 10, transactionDate: '2026-01-10' })
    const ofCustomers = () => h.queries.filter((q) => /"customers"/.test(String(q)) && !/from "api_keys"/.test(String(q)))
    h.queries.length = 0
    const patched = await h.request('PATCH', `/customers/${c.id}`, { firstnames: 'Read' })
    const statements = ofCustomers()
    assert.is(patched.status, 200)
    assert.equal([patched.body.firstnames, patched.body.balance], ['Read', (await h.request('GET', `/customers/${c.id}`)).body.balance])
    assert.ok(patched.body.balance > 0, 'the computed balance comes back with the update')
    const reads = statements.filter((q) => /^\s*select/i.test(String(q)) && /from "customers" where "customers"."id"/.test(String(q)))
    const updates = statements.filter((q) => /^\s*update "customers"/i.test(String(q)))
    assert.is(reads.length, 1, `one read of the row: ${reads.join(' | ')}`)
    assert.is(updates.length, 1)
    // Contract 2's order: a missing item is 404 before its body is looked at.
    assert.is((await h.request('PATCH', '/customers/999999', { firstnames: 'x' })).body.error_code, 404001)
    assert.is((await h.request('PATCH', '/customers/999999', undefined, { raw: '{bad', headers: { 'content-type': 'application/json' } })).body.error_code, 404001)
  })

  test('expansions on customers, numbers and services, with the *Active filters, in a constant number of queries', async ({ h }) => {
    const made: string[] = []
    for (let i = 0; i < 6; i++) {
      const c = (await h.request('POST', '/customers', { accountNumber: `EXP-${i}` })).body
      made.push(c.id)
      for (let j = 0; j < 2; j++) {
        const n = (await h.request('POST', `/customers/${c.id}/numbers`, { number: `0300${i}${j}` })).body
        await h.request('POST', `/numbers/${n.id}/features`, { featureType: 'Line Rental' })
      }
      await h.request('POST', `/customers/${c.id}/services`, { serviceType: 'FTTP' })
      await h.request('POST', `/customers/${c.id}/features`, { featureType: 'Support' })
    }
    const query = `/customers?idAfter=${Number(made[0]) - 1}&expandNumbers&expandServices&expandFeatures&limit=6`
    // The key's lookup is cached for BILLING_KEY_CACHE_MS (1 s): on a loaded machine it may lapse
    // between the two requests, so only the reads of the page are counted.
    const pageQueries = () => h.queries.filter((q) => !/from "api_keys"/.test(String(q))).length
    h.queries.length = 0
    const r = await h.request('GET', query)
    const perRequest = pageQueries()
    assert.is(r.body.length, 6)
    for (const c of r.body) {
      assert.is(c.numbers.length, 2)
      assert.is(c.services.length, 1)
      assert.is(c.features.length, 1, 'the customer\'s own features only')
      for (const n of c.numbers) assert.is(n.features.length, 1)
      assert.equal(c.services[0].features, [])
    }
    // one query per level, plus the balance of the page's customers and the ledger of each feature level
    assert.ok(perRequest <= 12, `expansion took ${perRequest} queries`)
    h.queries.length = 0
    await h.request('GET', query.replace('limit=6', 'limit=2'))
    assert.is(pageQueries(), perRequest, 'the number of queries does not grow with the page')
    const one = await h.request('GET', `/customers/${made[0]}?expandNumbers`)
    assert.is(one.body.numbers.length, 2)
    assert.is(one.body.features, undefined)
    const num = await h.request('GET', `/numbers/${one.body.numbers[0].id}?expandFeatures`)
    assert.is(num.body.features.length, 1)
    const numbersList = await h.request('GET', `/customers/${made[0]}/numbers?expandFeatures&featureActive`)
    assert.is(numbersList.body[0].features.length, 1)
    assert.is((await h.request('GET', `/customers/${made[0]}?expandNumbers&bogus`)).body.error_code, 400103)
  })

  test('DELETE a number takes its features; DELETE a feature; both answer the item as it was', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'D-1' })).body
    const n = (await h.request('POST', `/customers/${c.id}/numbers`, { number: '07700 900000' })).body
    const f = (await h.request('POST', `/numbers/${n.id}/features`, {})).body
    const own = (await h.request('POST', `/customers/${c.id}/features`, {})).body
    const del = await h.request('DELETE', `/numbers/${n.id}`)
    assert.is(del.status, 200)
    assert.equal(del.body, n)
    assert.is((await h.request('GET', `/numbers/${n.id}`)).body.error_code, 404001)
    assert.is((await h.request('GET', `/features/${f.id}`)).body.error_code, 404001)
    assert.is((await h.request('DELETE', `/features/${own.id}`)).body.id, own.id)
    assert.is((await h.request('DELETE', `/features/${own.id}`)).body.error_code, 404001)
  })

  test('presets discovery for every collection, tariff fields listing the current tariff names', async ({ h }) => {
    await h.request('POST', '/tariffs', { name: 'UK Standard' })
    await h.request('POST', '/fixedFeeTariffs', { name: 'Business 2026' })
    for (const name of ['customers', 'numbers', 'services', 'features', 'tariffs', 'fixedFeeTariffs', 'customerContacts', 'tariffDetails', 'fixedFeeTariffDetails']) {
      const r = await h.request('GET', `/presets/${name}/`)
      assert.is(r.status, 200, name)
    }
    const numbers = (await h.request('GET', '/presets/numbers')).body
    assert.ok(numbers.mobileTariff.includes('UK Standard'))
    assert.ok(numbers.fixedFeeTariff.includes('Business 2026'))
    assert.ok(numbers.numberType.includes('Geographic'))
    assert.is((await h.request('GET', '/presets/fixedFeeTariffs')).body.increaseOriginalID, undefined)
  })

  test.run()
}
