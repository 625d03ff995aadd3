import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { customers } from '../../core/fields/customers.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const wireFields = customers.fields.filter((f) => !f.internal).map((f) => f.name)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`http customers [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('authentication comes first: no key, malformed header, unknown and revoked keys → 401001', async ({ h }) => {
    for (const [key, headers] of [
      [null, {}],
      [null, { authorization: 'Basic abc' }],
      [null, { authorization: 'Bearer' }],
      ['tbk_not-a-real-key', {}],
      [h.keys.revoked, {}],
    ] as const) {
      for (const path of ['/customers', '/no/such/route']) {
        const r = await h.request('GET', path, undefined, { key, headers })
        assert.is(r.status, 401, `${path} with ${JSON.stringify(headers)}`)
        assert.equal(Object.keys(r.body), ['error', 'error_code', 'hint'])
        assert.is(r.body.error_code, 401001)
      }
    }
  })

  test('unknown route → 404000; PUT → 405001 with Allow; X-Request-Id echoed or generated', async ({ h }) => {
    const r404 = await h.request('GET', '/nope')
    assert.is(r404.status, 404)
    assert.is(r404.body.error_code, 404000)
    const r405 = await h.request('PUT', '/customers/1', {})
    assert.is(r405.status, 405)
    assert.is(r405.body.error_code, 405001)
    assert.is(r405.headers.get('allow'), 'DELETE, GET, PATCH, POST')
    const echoed = await h.request('GET', '/customers', undefined, { headers: { 'x-request-id': 'req-123' } })
    assert.is(echoed.headers.get('x-request-id'), 'req-123')
    const generated = await h.request('GET', '/customers')
    assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
    assert.is(r404.headers.get('x-request-id')?.length, 36)
  })

  test('create → 201, Location, every field present; unset null, unset lists []; starts active and billable', async ({ h }) => {
    const r = await h.request('POST', '/customers/', {
      title: 'Dr',
      firstnames: 'Ada',
      lastname: 'Lovelace',
      accountNumber: 'ACC-1',
      turnover: '1234.5678',
      netAssets: 99.99,
      customerGroups: ['VIP', 'Direct'],
      contractStartDate: '2024-02-29',
      status: 'Suspended',
    })
    assert.is(r.status, 201)
    assert.is(r.headers.get('location'), `/backend/api/v1/customers/${r.body.id}`)
    assert.equal(Object.keys(r.body).sort(), [...wireFields].sort())
    assert.is(r.body.turnover, 1234.5678)
    assert.is(r.body.netAssets, 99.99)
    assert.equal(r.body.customerGroups, ['VIP', 'Direct'])
    assert.equal(r.body.accountFlags, [])
    assert.is(r.body.email, null)
    assert.is(r.body.status, 'Suspended')
    assert.is(r.body.isDropped, false)
    assert.is(r.body.isSuspended, false)
    assert.is(r.body.isBillable, true)
    assert.is(r.body.isFinalBill, false)
    assert.is(r.body.createdStamp, '2026-01-15T10:00:00.000Z')
    assert.is(r.body.enteredDate, '2026-01-15')
    assert.is(typeof r.body.id, 'string')
    const got = await h.request('GET', `/customers/${r.body.id}`)
    assert.equal(got.body, r.body)
  })

  test('field errors: unknown, case-changed, wrong type, presets, money, dates → 400101 naming the field', async ({ h }) => {
    const before = (await h.request('GET', '/customers')).body.length
    const cases: [Record<string, unknown>, string][] = [
      [{ nickname: 'x' }, 'nickname'],
      [{ FirstNames: 'x' }, 'FirstNames'],
      [{ firstnames: 12 }, 'firstnames'],
      [{ employees: '12' }, 'employees'],
      [{ title: 'King' }, 'title'],
      [{ customerGroups: 'VIP' }, 'customerGroups'],
      [{ customerGroups: ['Nobody'] }, 'customerGroups'],
      [{ turnover: 1.23456 }, 'turnover'],
      [{ turnover: '12,50' }, 'turnover'],
      [{ contractStartDate: '2025-02-29' }, 'contractStartDate'],
      [{ contractStartDate: '2025-2-1' }, 'contractStartDate'],
      [{ status: 'Sleeping' }, 'status'],
      [{ fixedFeeTariff: 'No Such Tariff' }, 'fixedFeeTariff'],
      [{ defaultMobileTariff: 'No Such Tariff' }, 'defaultMobileTariff'],
    ]
    for (const [body, name] of cases) {
      const r = await h.request('POST', '/customers', body)
      assert.is(r.status, 400, JSON.stringify(body))
      assert.is(r.body.error_code, 400101, JSON.stringify(body))
      assert.ok(r.body.error.includes(name), `${r.body.error} names ${name}`)
      assert.type(r.body.hint, 'string')
    }
    const preset = await h.request('POST', '/customers', { title: 'King' })
    assert.ok(preset.body.hint.includes('"Mr"'), 'hint lists allowed values')
    const cased = await h.request('POST', '/customers', { FirstNames: 'x' })
    assert.ok(cased.body.hint.includes('firstnames'), 'hint suggests the right case')
    const list = await h.request('GET', '/customers')
    assert.is(list.body.length, before, 'nothing stored by rejected requests')
  })

  test('body errors: not JSON and non-objects → 400100, wrong type → 415001, over 1 MiB → 413001', async ({ h }) => {
    const bad = await h.request('POST', '/customers', undefined, { raw: '{"a":', headers: { 'content-type': 'application/json' } })
    assert.is(bad.body.error_code, 400100)
    for (const raw of ['[1]', '"x"', 'null', '12']) {
      const r = await h.request('POST', '/customers', undefined, { raw, headers: { 'content-type': 'application/json' } })
      assert.is(r.status, 400)
      assert.is(r.body.error_code, 400100, raw)
    }
    const plain = await h.request('POST', '/customers', undefined, { raw: '{}', headers: { 'content-type': 'text/plain' } })
    assert.is(plain.status, 415)
    assert.is(plain.body.error_code, 415001)
    const charset = await h.request('POST', '/customers', undefined, { raw: '{}', headers: { 'content-type': 'application/json; charset=UTF-8' } })
    assert.is(charset.status, 201)
    const huge = await h.request('POST', '/customers', undefined, {
      raw: JSON.stringify({ internalUse: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    })
    assert.is(huge.status, 413)
    assert.is(huge.body.error_code, 413001)
  })

  test('read-only fields: a different value → 400102, the same value ignored; GET → edit → PATCH round-trips', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'RO-1' })).body
    const changed = await h.request('PATCH', `/customers/${c.id}`, { isDropped: true })
    assert.is(changed.status, 400)
    assert.is(changed.body.error_code, 400102)
    for (const body of [{ id: '999' }, { status: 'Dropped' }, { balance: 10 }, { createdStamp: '2020-01-01T00:00:00Z' }]) {
      const r = await h.request('PATCH', `/customers/${c.id}`, body)
      assert.is(r.body.error_code, 400102, JSON.stringify(body))
    }
    const onCreate = await h.request('POST', '/customers', { isDropped: true })
    assert.is(onCreate.body.error_code, 400102)
    h.clock.advanceMs(60_000)
    const edited = await h.request('PATCH', `/customers/${c.id}`, { ...c, lastname: 'Edited' })
    assert.is(edited.status, 200, JSON.stringify(edited.body))
    assert.is(edited.body.lastname, 'Edited')
    assert.is(edited.body.updatedStamp, '2026-01-15T10:01:00.000Z')
  })

  test('PATCH merges: absent unchanged, null clears, {} changes nothing; PATCH of a missing customer → 404001', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { firstnames: 'A', lastname: 'B', customerGroups: ['VIP'] })).body
    const r1 = await h.request('PATCH', `/customers/${c.id}`, { lastname: null, customerGroups: null })
    assert.is(r1.body.firstnames, 'A')
    assert.is(r1.body.lastname, null)
    assert.equal(r1.body.customerGroups, [])
    const r2 = await h.request('PATCH', `/customers/${c.id}`, {})
    assert.equal(r2.body, r1.body)
    const missing = await h.request('PATCH', '/customers/999999', { lastname: 'x' })
    assert.is(missing.status, 404)
    assert.is(missing.body.error_code, 404001)
    const missingBad = await h.request('PATCH', '/customers/999999', undefined, { raw: 'nope', headers: { 'content-type': 'application/json' } })
    assert.is(missingBad.body.error_code, 404001, 'the item is checked before the body')
  })

  test('accountNumber and CRMReference are unique → 409001, on create and on update', async ({ h }) => {
    await h.request('POST', '/customers', { accountNumber: 'U-1', CRMReference: 'CRM-1' })
    const dupAcc = await h.request('POST', '/customers', { accountNumber: 'U-1' })
    assert.is(dupAcc.status, 409)
    assert.is(dupAcc.body.error_code, 409001)
    const dupCrm = await h.request('POST', '/customers', { CRMReference: 'CRM-1' })
    assert.is(dupCrm.body.error_code, 409001)
    const other = (await h.request('POST', '/customers', { accountNumber: 'U-2' })).body
    const patch = await h.request('PATCH', `/customers/${other.id}`, { accountNumber: 'U-1' })
    assert.is(patch.body.error_code, 409001)
    assert.is((await h.request('GET', `/customers/${other.id}`)).body.accountNumber, 'U-2')
  })

  test('GET a missing or malformed ID → 404001', async ({ h }) => {
    for (const id of ['999999', 'abc', '0', '-1', '1.5']) {
      const r = await h.request('GET', `/customers/${id}`)
      assert.is(r.status, 404, id)
      assert.is(r.body.error_code, 404001, id)
    }
  })

  test('writes refuse an unknown query name (400103) and write nothing; a repeated ?action= → 400103 too', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'Q-1', lastname: 'Kept' })).body
    const created = await h.request('POST', '/customers?dryRun=true', { accountNumber: 'Q-2' })
    assert.equal([created.status, created.body.error_code], [400, 400103])
    assert.equal((await h.request('GET', '/customers?accountNumber=Q-2')).body, [], 'not created')
    const patched = await h.request('PATCH', `/customers/${c.id}?dryRun=true`, { lastname: 'Changed' })
    assert.equal([patched.status, patched.body.error_code], [400, 400103])
    const twice = await h.request('POST', `/customers/${c.id}?action=generatePIN&action=drop`, {})
    assert.equal([twice.status, twice.body.error_code], [400, 400103])
    assert.match(twice.body.error, /more than once/)
    const after = (await h.request('GET', `/customers/${c.id}`)).body
    assert.equal([after.lastname, after.status], ['Kept', c.status], 'neither updated nor dropped')
    assert.is((await h.request('GET', `/customers/${c.id}/history`)).body.length, 1, 'only its creation')
  })

  test('DELETE schedules deletion in 30 days and the customer stays readable', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'DEL-1' })).body
    const r = await h.request('DELETE', `/customers/${c.id}`)
    assert.is(r.status, 200)
    assert.is(r.body.deletionScheduledDate, '2026-02-14')
    assert.is((await h.request('GET', `/customers/${c.id}`)).body.deletionScheduledDate, '2026-02-14')
    h.clock.advanceMs(86_400_000)
    assert.is((await h.request('DELETE', `/customers/${c.id}`)).body.deletionScheduledDate, '2026-02-14', 'not pushed back')
    h.clock.advanceMs(-86_400_000)
    assert.is((await h.request('DELETE', '/customers/999999')).body.error_code, 404001)
  })

  test('GET /presets/customers/ lists every preset field with its allowed values', async ({ h }) => {
    const r = await h.request('GET', '/presets/customers/')
    assert.is(r.status, 200)
    const presetFields = customers.fields.filter((f) => (f.type === 'preset' || f.type === 'presets') && !f.internal).map((f) => f.name)
    assert.equal(Object.keys(r.body).sort(), presetFields.sort())
    assert.ok(r.body.title.includes('Mr'))
    assert.ok(r.body.status.includes('Active') && r.body.status.includes('Final Bill'))
    assert.equal(r.body.fixedFeeTariff, [])
    assert.is((await h.request('GET', '/presets/customers?x=1')).body.error_code, 400103)
  })

  test('a hint that points elsewhere carries the URL of the API it is given by', async ({ h }) => {
    const unknown = await h.request('POST', '/customers', { accountNumber: 'HINT-1', colour: 'red' })
    assert.is(unknown.body.error_code, 400101)
    assert.ok(unknown.body.hint.includes('GET /backend/api/v1/openapi.json'), unknown.body.hint)
    const tariff = await h.request('POST', '/customers', { accountNumber: 'HINT-2', defaultNationalTariff: 'No Such Tariff' })
    assert.is(tariff.body.error_code, 400101)
    assert.ok(tariff.body.hint.includes('GET /backend/api/v1/presets/customers/'), tariff.body.hint)
    const archive = await h.request('GET', '/disasterRecoveryFiles/999999')
    assert.ok(archive.body.hint.includes('GET /backend/api/v1/disasterRecoveryFiles/'), archive.body.hint)
  })

  test('every write route: an unknown query name → 400103, after the item in its path (404001) and before its body (400100)', async ({ h }) => {
    // One item of each collection a write route's path names, so that each `:id` is real (last in
    // the suite: the presets discovery above lists no tariffs).
    const id = async (path: string, body: unknown = {}) => {
      const r = await h.request('POST', path, body)
      if (r.status !== 201) throw new Error(`${path}: ${r.text}`)
      return r.body.id as string
    }
    const customer = await id('/customers', { accountNumber: 'QW-1' })
    const tariff = await id('/tariffs', { name: 'QW Tariff' })
    const fixed = await id('/fixedFeeTariffs', { name: 'QW Fixed' })
    const table = await id('/destinationTables', { name: 'QW Table' })
    const ids: Record<string, string> = {
      customers: customer,
      numbers: await id(`/customers/${customer}/numbers`, { number: '01632 960 301' }),
      services: await id(`/customers/${customer}/services`),
      features: await id(`/customers/${customer}/features`),
      customerContacts: await id('/customerContacts'),
      tariffs: tariff,
      tariffDetails: await id(`/tariffs/${tariff}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'day', cost: '0.10' }),
      fixedFeeTariffs: fixed,
      fixedFeeTariffDetails: await id(`/fixedFeeTariffs/${fixed}/fixedFeeTariffDetails`),
      billingRuns: await id('/billingRuns', { name: 'QW run', cutoffDate: '2026-03-01', invoiceDate: '2026-03-01' }),
      webhooks: await id('/webhooks', { url: 'https://example.com/hook' }),
      destinationTables: table,
      destinations: await id(`/destinationTables/${table}/destinations`, { prefix: '44', chargeBand: 'UK', callClass: 'national' }),
    }
    const bad = { raw: '[', headers: { 'content-type': 'application/json' } }
    const onlyMissing: string[] = []
    for (const route of h.platform.routes) {
      // A provider's callback is authenticated by its signature, not by a key: not a client's route.
      if (route.method === 'GET' || route.public) continue
      const parts = route.path.split('/')
      const real = parts.map((p, i) => (p === ':id' ? ids[parts[i - 1]] : p))
      if (parts.includes(':id')) {
        const missing = await h.request(route.method, `${parts.map((p) => (p === ':id' ? '999999' : p)).join('/')}?dryRun=true`, undefined, bad)
        assert.is(missing.body?.error_code, 404001, `${route.method} ${route.path} on a missing item`)
      }
      if (real.includes(undefined as never)) {
        onlyMissing.push(`${route.method} ${route.path}`)
        continue
      }
      const r = await h.request(route.method, `${real.join('/')}?dryRun=true`, undefined, bad)
      assert.equal([r.status, r.body?.error_code], [400, 400103], `${route.method} ${route.path}`)
    }
    // An invoice takes a billing run, a call a usage import (seconds on a file database): their
    // routes share the code checked above.
    assert.equal(onlyMissing.sort(), ['DELETE /calls/:id', 'POST /invoices/:id', 'POST /invoices/:id/creditNotes'])
  })
  test.run()
}
