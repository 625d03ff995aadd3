import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const ids = (body: any[]) => body.map((x) => x.id)

async function tree(h: Harness, tag: string) {
  const post = async (path: string, body: object = {}) => {
    const r = await h.request('POST', path, body)
    assert.is(r.status, 201, JSON.stringify(r.body))
    return r.body.id as string
  }
  const customer = await post('/customers', { accountNumber: `LC-${tag}` })
  const number = await post(`/customers/${customer}/numbers`, { number: `0117 496 ${tag}` })
  const service = await post(`/customers/${customer}/services`)
  return {
    customer,
    number,
    service,
    own: await post(`/customers/${customer}/features`),
    onNumber: await post(`/numbers/${number}/features`),
    onService: await post(`/services/${service}/features`),
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`http lifecycle actions [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-03-10T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const act = (h: Harness, path: string, action: string, body: object = {}) => h.request('POST', `${path}?action=${action}`, body)
  const get = async (h: Harness, path: string) => (await h.request('GET', path)).body

  test('dropping a customer drops its tree; reinstating brings back exactly what it took', async ({ h }) => {
    const t = await tree(h, '0001')
    const ownDrop = await act(h, `/features/${t.own}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-01' })
    assert.is(ownDrop.status, 200, JSON.stringify(ownDrop.body))
    h.clock.set('2026-03-10T10:00:00Z')
    const r = await act(h, `/customers/${t.customer}`, 'drop', { status: 'Ex-Customer', dateDrop: '2026-03-10', statusReason: 'Moved Supplier' })
    assert.is(r.status, 200)
    assert.is(r.body.isDropped, true)
    assert.is(r.body.status, 'Ex-Customer')
    assert.is(r.body.statusReason, 'Moved Supplier')
    assert.is(r.body.updatedDate, '2026-03-10')
    assert.is(r.body.droppedStamp, '2026-03-10T10:00:00.000Z')
    for (const path of [`/numbers/${t.number}`, `/services/${t.service}`, `/features/${t.onNumber}`, `/features/${t.onService}`]) {
      const item = await get(h, path)
      assert.is(item.isDropped, true, path)
      assert.is(item.status, 'Ex-Customer', path)
    }
    assert.is((await get(h, `/features/${t.own}`)).updatedDate, '2026-03-01', 'dropped on its own earlier: untouched')
    assert.ok(ids((await h.request('GET', '/customers?dropped')).body).includes(t.customer))
    assert.not.ok(ids((await h.request('GET', '/customers?active')).body).includes(t.customer))
    assert.ok(ids((await h.request('GET', '/customers?droppedSince=2026-03-10T09:59:59Z')).body).includes(t.customer))
    assert.equal((await h.request('GET', '/customers?droppedSince=2026-03-10T10:00:01Z')).body, [])

    h.clock.set('2026-03-11T08:00:00Z')
    const back = await act(h, `/customers/${t.customer}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-11' })
    assert.is(back.status, 200)
    assert.is(back.body.isDropped, false)
    assert.is(back.body.reinstatedStamp, '2026-03-11T08:00:00.000Z')
    for (const path of [`/numbers/${t.number}`, `/services/${t.service}`, `/features/${t.onNumber}`, `/features/${t.onService}`]) {
      assert.is((await get(h, path)).isDropped, false, path)
    }
    assert.is((await get(h, `/features/${t.own}`)).isDropped, true, 'dropped on its own: stays dropped')
    assert.ok(ids((await h.request('GET', '/features?reinstatedSince=2026-03-11T00:00:00Z')).body).includes(t.onNumber))
  })

  test('dateReinstateNumbersFeatures also reinstates items dropped on their own on that date', async ({ h }) => {
    const t = await tree(h, '0002')
    await act(h, `/features/${t.own}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-05' })
    await act(h, `/numbers/${t.number}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-05' })
    await act(h, `/customers/${t.customer}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-06' })
    const r = await act(h, `/customers/${t.customer}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-12', dateReinstateNumbersFeatures: '2026-03-05' })
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is((await get(h, `/features/${t.own}`)).isDropped, false)
    assert.is((await get(h, `/numbers/${t.number}`)).isDropped, false)
    assert.is((await get(h, `/features/${t.onNumber}`)).isDropped, false, "the number's own drop had taken it; it comes back with the number")
  })

  test('400501, 400503, 400504 and 400502 in the order of contract 2', async ({ h }) => {
    const t = await tree(h, '0003')
    const unknown = await act(h, `/customers/${t.customer}`, 'explode', {})
    assert.is(unknown.body.error_code, 400501)
    assert.is((await act(h, `/numbers/${t.number}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-03-31' })).body.error_code, 400501, 'finalBill is for customers')
    const missing = await act(h, `/customers/${t.customer}`, 'drop', {})
    assert.is(missing.body.error_code, 400503)
    assert.ok(missing.body.hint.includes('status') && missing.body.hint.includes('dateDrop'))
    assert.is((await act(h, `/customers/${t.customer}`, 'drop', { status: 'Dropped' })).body.error_code, 400503)
    for (const body of [
      { status: 'Gone', dateDrop: '2026-03-10' },
      { status: 'Dropped', dateDrop: '2026-02-30' },
      { status: 'Dropped', dateDrop: '10/03/2026' },
      { status: 'Dropped', dateDrop: '2026-03-10', statusReason: 'Bored' },
      { status: 'Dropped', dateDrop: '2026-03-10', ignoreTrafficNumberType: 'Some' },
      { status: 'Dropped', dateDrop: '2026-03-10', colour: 'red' },
    ]) {
      assert.is((await act(h, `/customers/${t.customer}`, 'drop', body)).body.error_code, 400504, JSON.stringify(body))
    }
    const notDropped = await act(h, `/customers/${t.customer}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-10' })
    assert.is(notDropped.body.error_code, 400502)
    assert.is((await act(h, `/customers/${t.customer}`, 'reinstate', { status: 'Nope', dateReinstate: '2026-03-10' })).body.error_code, 400504, 'values before state')
    assert.is((await act(h, `/features/${t.own}`, 'unsuspend', { status: 'Active' })).body.error_code, 400502)
    await act(h, `/numbers/${t.number}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10' })
    assert.is((await act(h, `/numbers/${t.number}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10' })).body.error_code, 400502)
    const underDropped = await act(h, `/features/${t.onNumber}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-10' })
    assert.is(underDropped.body.error_code, 400502, 'a feature cannot come back under a dropped number')
    assert.equal(Object.keys(underDropped.body), ['error', 'error_code', 'hint'])
  })

  test('suspend, unsuspend, makeNonBillable, makeBillable: flags independent, dates default to today', async ({ h }) => {
    const t = await tree(h, '0004')
    h.clock.set('2026-04-02T12:00:00Z')
    const s = await act(h, `/features/${t.onNumber}`, 'suspend', { status: 'Suspended' })
    assert.is(s.body.isSuspended, true)
    assert.is(s.body.statusChangedStamp, '2026-04-02')
    assert.is((await act(h, `/features/${t.onNumber}`, 'suspend', { status: 'Suspended' })).body.error_code, 400502)
    const nb = await act(h, `/features/${t.onNumber}`, 'makeNonBillable', { status: 'Non-Billable', dateMakeNonBillable: '2026-04-05' })
    assert.is(nb.body.isBillable, false)
    assert.is(nb.body.isSuspended, true, 'non-billable keeps the suspension')
    assert.is(nb.body.statusChangedStamp, '2026-04-05')
    assert.is((await act(h, `/features/${t.onNumber}`, 'makeNonBillable', { status: 'Non-Billable' })).body.error_code, 400502)
    const un = await act(h, `/features/${t.onNumber}`, 'unsuspend', { status: 'Active - Do Not Bill' })
    assert.is(un.body.isSuspended, false)
    assert.is(un.body.isBillable, false)
    const b = await act(h, `/features/${t.onNumber}`, 'makeBillable', { status: 'Active' })
    assert.is(b.body.isBillable, true)
    assert.is((await get(h, `/numbers/${t.number}`)).isSuspended, false, 'no cascade to the parent')
    const cs = await act(h, `/customers/${t.customer}`, 'suspend', { status: 'Suspended' })
    assert.is(cs.body.isSuspended, true)
    assert.is((await get(h, `/numbers/${t.number}`)).isSuspended, false, 'billing reads ancestors; children keep their flags')
  })

  test('finalBill: flags the customer; finalBill and excludeFinalBill filters; not twice', async ({ h }) => {
    const t = await tree(h, '0005')
    const r = await act(h, `/customers/${t.customer}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-04-30' })
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is(r.body.isFinalBill, true)
    assert.is(r.body.finalBillDate, '2026-04-30')
    assert.ok(ids((await h.request('GET', '/customers?finalBill')).body).includes(t.customer))
    assert.not.ok(ids((await h.request('GET', '/customers?excludeFinalBill')).body).includes(t.customer))
    assert.is((await act(h, `/customers/${t.customer}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-04-30' })).body.error_code, 400502)
  })

  test('feature drop stores billToDate from notice period and minimum term, or dateBillTo', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    const f = (await h.request('POST', `/customers/${c}/features`, { noticePeriodLength: 30, noticePeriodLengthType: 'days', minimumTermDate: '2026-03-20' })).body.id
    // notice: 2026-03-10 + 30 days - 1 day = 2026-04-08, later than the minimum term 2026-03-20
    const r = await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10' })
    assert.is(r.body.billToDate, '2026-04-08')
    const g = (await h.request('POST', `/customers/${c}/features`, { minimumTermDate: '2026-06-30' })).body.id
    assert.is((await act(h, `/features/${g}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10' })).body.billToDate, '2026-06-30')
    const k = (await h.request('POST', `/customers/${c}/features`, { minimumTermDate: '2026-06-30' })).body.id
    assert.is((await act(h, `/features/${k}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10', dateBillTo: '2026-03-15' })).body.billToDate, '2026-03-15')
    assert.is((await act(h, `/features/${k}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-16' })).body.billToDate, null)
  })

  test('number drop with ignoreTrafficNumberType records the ignore-traffic entry', async ({ h }) => {
    const t = await tree(h, '0006')
    const r = await act(h, `/numbers/${t.number}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10', ignoreTrafficNumberType: 'All Traffic' })
    assert.is(r.status, 200)
    const entries = (await h.platform.context.store.lifecycle.ignoreTraffic()).filter((e) => e.numberID === t.number)
    assert.equal(entries.map((e) => [e.type, e.fromDate, e.number]), [['All Traffic', '2026-03-10', '0117 496 0006']])
  })

  test("a drop's ignore-traffic entries end when the number is reinstated, and never hold another live number's traffic", async ({ h }) => {
    const a = await tree(h, '0008')
    const b = await tree(h, '0009')
    const drop = { status: 'Dropped', dateDrop: '2026-03-10', ignoreTrafficNumberType: 'All Traffic' }
    assert.is((await act(h, `/numbers/${a.number}`, 'drop', drop)).status, 200)
    assert.is((await act(h, `/customers/${b.customer}`, 'drop', drop)).status, 200)
    h.clock.set('2026-03-20T09:00:00Z')
    assert.is((await act(h, `/numbers/${a.number}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-12' })).status, 200)
    const entries = (await h.platform.context.store.lifecycle.ignoreTraffic()).filter((e) => e.numberID === a.number || e.numberID === b.number)
    assert.equal(entries.map((e) => [e.numberID, e.fromDate, e.reinstatedDate]), [[a.number, '2026-03-10', '2026-03-12'], [b.number, '2026-03-10', null]])
    // B left; its number's digits are sold to C
    const c = (await h.request('POST', '/customers', { accountNumber: 'LC-0009C' })).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01174960009' })).body.id
    const rows = [
      ['01174960008', '2026-03-11T10:00:00Z'], // while A's number was dropped: ignored
      ['01174960008', '2026-03-12T10:00:00Z'], // reinstated that day: A's
      ['01174960009', '2026-03-12T11:00:00Z'], // C's number now, whatever B's drop said
    ]
    const csv = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows.map(([from, at]) => `${from},07700900123,${at},60,MOB,mobile,Gamma`)].join('\n')
    const file = await h.request('POST', '/usageFiles?name=ignore.csv', undefined, { raw: csv, headers: { 'content-type': 'text/csv' } })
    assert.is(file.status, 201, JSON.stringify(file.body))
    const byStart = (await h.request('GET', '/calls?limit=1000')).body.filter((x: any) => x.usageFileID === file.body.id)
    assert.equal(
      byStart.map((x: any) => [x.startTime.slice(0, 10), x.numberID, x.unbilledReason === 'ignored traffic']),
      [['2026-03-11', null, true], ['2026-03-12', a.number, false], ['2026-03-12', n, false]],
    )
  })

  test("a dropped number's calls up to its drop date are its own, however late they arrive; later ones match no number", async ({ h }) => {
    const tariff = (await h.request('POST', '/tariffs', { name: 'LC-DROP', baseRoundSeconds: 60 })).body.id
    assert.is((await h.request('POST', `/tariffs/${tariff}/tariffDetails`, { chargeBand: 'LCD', timeBand: 'any', cost: '1.00', costConnection: '0' })).status, 201)
    const customer = (await h.request('POST', '/customers', { accountNumber: 'LC-0011', defaultMobileTariff: 'LC-DROP' })).body.id
    const post = async (digits: string) => (await h.request('POST', `/customers/${customer}/numbers`, { number: digits })).body.id as string
    const [notice, past] = [await post('01174960011'), await post('01174960012')]
    // a notice period: dropped at once, its service ends on 31 March
    assert.is((await act(h, `/numbers/${notice}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-31' })).status, 200)
    assert.is((await act(h, `/numbers/${past}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-08', ignoreTrafficNumberType: 'All Traffic' })).status, 200)
    const rows = [
      ['01174960011', '2026-03-05T10:00:00Z'], // before its drop date: the number's
      ['01174960011', '2026-03-09T10:00:00Z'],
      ['01174960011', '2026-04-01T10:00:00Z'], // after it: no number's
      ['01174960012', '2026-03-03T10:00:00Z'], // before a drop recorded first
      ['01174960012', '2026-03-08T10:00:00Z'], // from the drop date its traffic is ignored
    ]
    const csv = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows.map(([from, at]) => `${from},07700900123,${at},180,LCD,mobile,Gamma`)].join('\n')
    const file = await h.request('POST', '/usageFiles?name=dropped.csv', undefined, { raw: csv, headers: { 'content-type': 'text/csv' } })
    assert.is(file.status, 201, JSON.stringify(file.body))
    const calls = (await h.request('GET', '/calls?limit=1000')).body.filter((x: any) => x.usageFileID === file.body.id)
    assert.equal(
      calls.map((x: any) => [x.startTime.slice(0, 10), x.numberID, x.customerID, x.cost, x.unbilledReason ?? null]),
      [
        ['2026-03-05', notice, customer, 3, null],
        ['2026-03-09', notice, customer, 3, null],
        ['2026-04-01', null, null, null, 'no matching number'],
        ['2026-03-03', past, customer, 3, null],
        ['2026-03-08', null, null, null, 'ignored traffic'],
      ],
    )
  })

  test('a number, service or feature cannot be created under a dropped customer, number or service (400502, after the fields)', async ({ h }) => {
    const t = await tree(h, '0010')
    assert.is((await act(h, `/numbers/${t.number}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10' })).status, 200)
    assert.is((await act(h, `/services/${t.service}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10' })).status, 200)
    for (const parent of [`/numbers/${t.number}`, `/services/${t.service}`]) {
      const r = await h.request('POST', `${parent}/features`, { serviceCharge: '10.00' })
      assert.equal([r.status, r.body.error_code], [400, 400502], parent)
      assert.match(r.body.error, /dropped/)
      assert.match(r.body.hint, /[Rr]einstate/)
      // contract 2: the fields first
      assert.is((await h.request('POST', `${parent}/features`, { nope: 1 })).body.error_code, 400101)
    }
    assert.equal((await h.request('GET', `/numbers/${t.number}/features`)).body.map((f: any) => f.id), [t.onNumber])
    assert.is((await act(h, `/customers/${t.customer}`, 'drop', { status: 'Ex-Customer', dateDrop: '2026-03-10' })).status, 200)
    for (const kind of ['numbers', 'services', 'features']) {
      assert.is((await h.request('POST', `/customers/${t.customer}/${kind}`, {})).body.error_code, 400502, kind)
    }
    // contacts have no lifecycle; an active parent takes children again
    assert.is((await h.request('POST', `/customers/${t.customer}/customerContacts`, {})).status, 201)
    assert.is((await act(h, `/customers/${t.customer}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-12' })).status, 200)
    assert.is((await h.request('POST', `/customers/${t.customer}/numbers`, {})).status, 201)
    // dropped on its own before the customer: still dropped until reinstated itself
    assert.is((await h.request('POST', `/numbers/${t.number}/features`, {})).body.error_code, 400502)
    assert.is((await act(h, `/numbers/${t.number}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-12' })).status, 200)
    assert.is((await h.request('POST', `/numbers/${t.number}/features`, {})).status, 201)
  })

  test('statuses come from the presets; a status action accepts any configured name', async ({ h }) => {
    const t = await tree(h, '0007')
    const r = await act(h, `/services/${t.service}`, 'suspend', { status: 'Porting Out', statusReason: 'Non-Payment' })
    assert.is(r.status, 200)
    assert.is(r.body.status, 'Porting Out')
    assert.is(r.body.isSuspended, true)
  })

  test.run()
}
