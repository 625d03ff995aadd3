import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Tariff increases (billing-api.md, Fixed fee tariffs and Call tariffs; contract 9.6). Every
 * expected price is worked out by hand below: (100 + p)% of the price, rounded half away from
 * zero to 4 decimal places.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`http tariff increases [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target) // today is 2026-01-15
  })
  test.after(async (ctx) => ctx.h.close())

  const act = (h: Harness, kind: string, id: string, action: string, body: unknown, key?: string) =>
    h.request('POST', `/${kind}/${id}/${action}`, body, key ? { key } : {})

  /** A call tariff with a price in every kind of field, and two rates. */
  async function callTariff(h: Harness, name: string) {
    const t = await h.request('POST', '/tariffs', {
      name,
      baseCost: 0.0333,
      baseCostConnection: 0.05,
      baseCostMin: 0.001,
      baseCostMax: 10,
      baseCostSecondaryConnection: 0.02,
      baseAccessCharge: 0.002,
      baseSurchargeCallRecording: 0.0125,
      baseSurchargeCallRecordingConnection: 0.1,
      baseRoundSeconds: 60,
      baseDurationMin: 30,
      baseRoundPence: 1,
      fallbackMarkup: 25,
    })
    assert.is(t.status, 201, JSON.stringify(t.body))
    const rate = (chargeBand: string, extra: object) =>
      h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand, timeBand: 'day', startDate: '2026-01-01', ...extra })
    const mobile = await rate('UK Mobile', { cost: 0.0825, costConnection: 0.01, costMin: 0.05, costMax: 5, surchargeMobileOrigination: 0.003 })
    const national = await rate('UK National', { cost: '0.0120' })
    assert.is(mobile.status, 201, JSON.stringify(mobile.body))
    return { tariff: t.body, mobile: mobile.body, national: national.body }
  }

  /** A fixed fee tariff with one price row: line rental 12.50 a month, 99.00 to connect. */
  async function fixedFeeTariff(h: Harness, name: string) {
    const t = (await h.request('POST', '/fixedFeeTariffs', { name })).body
    const d = await h.request('POST', `/fixedFeeTariffs/${t.id}/fixedFeeTariffDetails`, {
      description: 'Line rental',
      serviceCharge: '12.50',
      connectionCharge: 99,
    })
    assert.is(d.status, 201, JSON.stringify(d.body))
    return { tariff: t, rental: d.body }
  }

  const rates = async (h: Harness, tariffID: string) => (await h.request('GET', `/tariffs/${tariffID}/tariffDetails`)).body

  test('call tariff, costOnly, in place: baseCost and each rate cost only; the increase recorded', async ({ h }) => {
    const { tariff, mobile, national } = await callTariff(h, 'Apply Cost')
    const r = await act(h, 'tariffs', tariff.id, 'applyIncrease', { increasePercent: 5, increaseScope: 'costOnly' })
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is(r.body.id, tariff.id)
    assert.is(r.body.baseCost, 0.035) // 0.0333 × 1.05 = 0.034965 → 0.0350
    assert.is(r.body.baseCostConnection, 0.05, 'not a cost: unchanged')
    assert.is(r.body.baseSurchargeCallRecording, 0.0125)
    assert.is(r.body.increaseOriginalID, tariff.id, 'an in-place increase is its own original')
    assert.is(r.body.increasePercent, 5)
    assert.is(r.body.increaseScope, 'costOnly')
    assert.is(r.body.increaseEffectiveDate, '2026-01-15', 'today, by default')
    const [m, n] = await rates(h, tariff.id)
    assert.is(m.id, mobile.id)
    assert.is(m.cost, 0.0866) // 0.0825 × 1.05 = 0.086625 → 0.0866
    assert.is(m.costConnection, 0.01)
    assert.is(m.costMin, 0.05)
    assert.is(m.surchargeMobileOrigination, 0.003)
    assert.is(n.id, national.id)
    assert.is(n.cost, 0.0126) // 0.0120 × 1.05 = 0.0126 exactly
    assert.equal((await h.request('GET', `/tariffs/${tariff.id}`)).body, r.body)
  })

  // Effective today: in place at once (a later date splits the rates instead: charge-changes.test.ts, contract 17.5).
  test('call tariff, allCharges, in place: every price of the tariff and its rates, no rounding steps', async ({ h }) => {
    const { tariff } = await callTariff(h, 'Apply All')
    const r = await act(h, 'tariffs', tariff.id, 'applyIncrease', {
      increasePercent: '3.5',
      increaseScope: 'allCharges',
      increaseEffectiveDate: '2026-01-15',
    })
    assert.is(r.status, 200, JSON.stringify(r.body))
    const t = r.body
    assert.is(t.baseCost, 0.0345) // 0.0333 × 1.035 = 0.0344655 → 0.0345
    assert.is(t.baseCostConnection, 0.0518) // 0.05 × 1.035 = 0.05175 → half up → 0.0518
    assert.is(t.baseCostMin, 0.001) // 0.001 × 1.035 = 0.001035 → 0.0010
    assert.is(t.baseCostMax, 10.35)
    assert.is(t.baseCostSecondaryConnection, 0.0207)
    assert.is(t.baseAccessCharge, 0.0021) // 0.002 × 1.035 = 0.00207 → 0.0021
    assert.is(t.baseAccessChargeConnection, null, 'unset stays unset')
    assert.is(t.baseSurchargeCallRecording, 0.0129) // 0.0125 × 1.035 = 0.0129375 → 0.0129
    assert.is(t.baseSurchargeCallRecordingConnection, 0.1035)
    assert.is(t.baseRoundSeconds, 60)
    assert.is(t.baseDurationMin, 30)
    assert.is(t.baseRoundPence, 1)
    assert.is(t.fallbackMarkup, 25)
    assert.is(t.increasePercent, 3.5)
    assert.is(t.increaseScope, 'allCharges')
    assert.is(t.increaseEffectiveDate, '2026-01-15')
    const [m, n] = await rates(h, tariff.id)
    assert.is(m.cost, 0.0854) // 0.0825 × 1.035 = 0.0853875 → 0.0854
    assert.is(m.costConnection, 0.0104) // 0.01 × 1.035 = 0.01035 → half up → 0.0104
    assert.is(m.costMin, 0.0518) // 0.05175 → 0.0518
    assert.is(m.costMax, 5.175)
    assert.is(m.surchargeMobileOrigination, 0.0031) // 0.003105 → 0.0031
    assert.is(n.cost, 0.0124) // 0.012 × 1.035 = 0.01242 → 0.0124
    assert.is(n.costConnection, null)
  })

  test('a decrease, and a raise rounded once to 4 places', async ({ h }) => {
    const t = (await h.request('POST', '/tariffs', { name: 'Per Second', baseCost: 0.0125 })).body
    const up = await act(h, 'tariffs', t.id, 'applyIncrease', { increasePercent: 5, increaseScope: 'costOnly' })
    assert.is(up.body.baseCost, 0.0131) // 0.0125 × 1.05 = 0.013125 → 0.0131
    const down = await act(h, 'tariffs', t.id, 'createIncreaseVersion', { increasePercent: -10, increaseScope: 'costOnly' })
    assert.is(down.status, 200, JSON.stringify(down.body))
    assert.is(down.body.name, 'Per Second -10%')
    assert.is(down.body.baseCost, 0.0118) // 0.0131 × 0.90 = 0.01179 → 0.0118
    assert.is(down.body.increasePercent, -10)
  })

  test('fixed fee tariffs: recurringOnly leaves connection charges; recurringAndConnections raises both', async ({ h }) => {
    const { tariff, rental } = await fixedFeeTariff(h, 'Rental Apply')
    const r = await act(h, 'fixedFeeTariffs', tariff.id, 'applyIncrease', { increasePercent: 2.75, increaseScope: 'recurringOnly' })
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is(r.body.increaseOriginalID, tariff.id)
    assert.is(r.body.increaseScope, 'recurringOnly')
    assert.is(r.body.increasePercent, 2.75)
    const d = (await h.request('GET', `/fixedFeeTariffDetails/${rental.id}`)).body
    assert.is(d.serviceCharge, 12.8438) // 12.50 × 1.0275 = 12.84375 → 12.8438
    assert.is(d.connectionCharge, 99, 'a connection charge is not recurring')

    const other = await fixedFeeTariff(h, 'Rental Copy')
    const v = await act(h, 'fixedFeeTariffs', other.tariff.id, 'createIncreaseVersion', {
      increasePercent: 2.75,
      increaseScope: 'recurringAndConnections',
    })
    assert.is(v.status, 200, JSON.stringify(v.body))
    assert.is(v.body.name, 'Rental Copy +2.75%')
    assert.is(v.body.increaseOriginalID, other.tariff.id)
    const [copy] = (await h.request('GET', `/fixedFeeTariffs/${v.body.id}/fixedFeeTariffDetails`)).body
    assert.is(copy.fixedFeeTariffID, v.body.id)
    assert.is(copy.description, 'Line rental')
    assert.is(copy.serviceCharge, 12.8438) // as above
    assert.is(copy.connectionCharge, 101.7225) // 99 × 1.0275 = 101.7225 exactly
    const original = (await h.request('GET', `/fixedFeeTariffDetails/${other.rental.id}`)).body
    assert.equal([original.serviceCharge, original.connectionCharge], [12.5, 99], 'the original is unchanged')
  })

  test('createIncreaseVersion copies tariff and rates, leaves the original, and answers the same copy again', async ({ h }) => {
    const { tariff, mobile } = await callTariff(h, 'Retail')
    const body = { increasePercent: 3.5, increaseScope: 'costOnly' }
    const v = await act(h, 'tariffs', tariff.id, 'createIncreaseVersion', body, h.keys.low)
    assert.is(v.status, 200, 'no special access needed')
    assert.is.not(v.body.id, tariff.id)
    assert.is(v.body.name, 'Retail +3.5%')
    assert.is(v.body.baseCost, 0.0345) // 0.0333 × 1.035 = 0.0344655 → 0.0345
    assert.is(v.body.baseCostConnection, 0.05)
    assert.is(v.body.baseRoundSeconds, 60, 'everything else is copied')
    assert.equal(
      [v.body.increaseOriginalID, v.body.increasePercent, v.body.increaseScope, v.body.increaseEffectiveDate],
      [tariff.id, 3.5, 'costOnly', '2026-01-15'],
    )
    const copied = await rates(h, v.body.id)
    assert.equal(copied.map((d: any) => [d.tariffID, d.chargeBand, d.cost, d.costConnection]), [
      [v.body.id, 'UK Mobile', 0.0854, 0.01], // 0.0825 × 1.035 = 0.0853875 → 0.0854
      [v.body.id, 'UK National', 0.0124, null], // 0.0120 × 1.035 = 0.01242 → 0.0124
    ])
    assert.equal((await h.request('GET', `/tariffs/${tariff.id}`)).body, tariff, 'the original is unchanged')
    assert.equal((await rates(h, tariff.id))[0], mobile)

    const again = await act(h, 'tariffs', tariff.id, 'createIncreaseVersion', { ...body, increasePercent: '3.50' })
    assert.is(again.status, 200)
    assert.equal(again.body, v.body, 'the same source, percentage and scope answer the existing copy')
    assert.is((await rates(h, v.body.id)).length, 2, 'nothing copied twice')

    const wider = await act(h, 'tariffs', tariff.id, 'createIncreaseVersion', { increasePercent: 3.5, increaseScope: 'allCharges' })
    assert.is.not(wider.body.id, v.body.id, 'another scope is another version')
    assert.is(wider.body.name, 'Retail +3.5% (2)', 'the name is taken, so it is numbered')
    assert.is(wider.body.baseCostConnection, 0.0518)
  })

  test('an in-place increase is not mistaken for a version of the tariff', async ({ h }) => {
    const { tariff } = await callTariff(h, 'Self')
    const body = { increasePercent: 5, increaseScope: 'costOnly' }
    await act(h, 'tariffs', tariff.id, 'applyIncrease', body)
    const v = await act(h, 'tariffs', tariff.id, 'createIncreaseVersion', body)
    assert.is.not(v.body.id, tariff.id)
    assert.is(v.body.baseCost, 0.0368) // 0.0350 (after the in-place 5%) × 1.05 = 0.03675 → half up → 0.0368
  })

  test('racing createIncreaseVersion calls agree on one copy', async ({ h }) => {
    const { tariff } = await callTariff(h, 'Race')
    // A few rounds, since one round of 10 may happen not to overlap.
    for (const percent of [7.25, 8, 9]) {
      const body = { increasePercent: percent, increaseScope: 'allCharges' }
      const answers = await Promise.all(Array.from({ length: 10 }, () => act(h, 'tariffs', tariff.id, 'createIncreaseVersion', body)))
      const failed = answers.find((a) => a.status !== 200)
      assert.is(failed, undefined, JSON.stringify(failed?.body))
      assert.is(new Set(answers.map((a) => a.body.id)).size, 1, `${percent}%: one ID`)
    }
    const all = (await h.request('GET', '/tariffs?limit=1000')).body
    const versions = all.filter((t: any) => t.increaseOriginalID === tariff.id)
    assert.equal(versions.map((t: any) => t.name), ['Race +7.25%', 'Race +8%', 'Race +9%'], 'exactly one copy each')
    for (const v of versions) assert.is((await rates(h, v.id)).length, 2)
  })

  test('applyIncrease needs expert level 5 (403101), checked before the tariff and the body', async ({ h }) => {
    const { tariff } = await fixedFeeTariff(h, 'Guarded')
    const body = { increasePercent: 1, increaseScope: 'recurringOnly' }
    for (const id of [tariff.id, '999999']) {
      const r = await act(h, 'fixedFeeTariffs', id, 'applyIncrease', {}, h.keys.low)
      assert.is(r.status, 403)
      assert.is(r.body.error_code, 403101)
    }
    assert.is((await act(h, 'tariffs', '999999', 'applyIncrease', body, h.keys.low)).body.error_code, 403101)
    const d = (await h.request('GET', `/fixedFeeTariffs/${tariff.id}/fixedFeeTariffDetails`)).body[0]
    assert.is(d.serviceCharge, 12.5, 'nothing changed')
  })

  test('errors in contract order: 404001, 400100, 400503 naming the parameter, 400504', async ({ h }) => {
    const { tariff } = await callTariff(h, 'Errors')
    const ff = (await fixedFeeTariff(h, 'Errors FF')).tariff
    for (const action of ['applyIncrease', 'createIncreaseVersion']) {
      const code = async (kind: string, id: string, body: unknown) => (await act(h, kind, id, action, body)).body.error_code
      const raw = await h.request('POST', `/tariffs/${tariff.id}/${action}`, undefined, {
        raw: '{not json',
        headers: { 'content-type': 'application/json' },
      })
      assert.is(raw.body.error_code, 400100, action)
      assert.is(await code('tariffs', '999999', {}), 404001, action)
      const missing = await act(h, 'tariffs', tariff.id, action, { increaseScope: 'costOnly', bogus: 1 })
      assert.is(missing.status, 400)
      assert.is(missing.body.error_code, 400503, 'missing comes before unknown')
      assert.match(missing.body.hint, 'increasePercent')
      const noScope = await act(h, 'fixedFeeTariffs', ff.id, action, { increasePercent: 2 })
      assert.is(noScope.body.error_code, 400503)
      assert.match(noScope.body.hint, 'increaseScope')
      assert.is(await code('tariffs', tariff.id, { increasePercent: null, increaseScope: 'costOnly' }), 400503)
      const bad: unknown[] = [
        { increasePercent: 5, increaseScope: 'recurringOnly' }, // a fixed fee scope on a call tariff
        { increasePercent: 5, increaseScope: 'everything' },
        { increasePercent: 'abc', increaseScope: 'costOnly' },
        { increasePercent: 1.23456, increaseScope: 'costOnly' }, // more than 4 decimals
        { increasePercent: -100, increaseScope: 'costOnly' }, // would zero every price
        { increasePercent: 1000.0001, increaseScope: 'costOnly' },
        { increasePercent: true, increaseScope: 'costOnly' },
        { increasePercent: 5, increaseScope: 'costOnly', increaseEffectiveDate: '2026-02-30' },
        { increasePercent: 5, increaseScope: 'costOnly', note: 'unknown parameter' },
      ]
      for (const body of bad) assert.is(await code('tariffs', tariff.id, body), 400504, `${action} ${JSON.stringify(body)}`)
      assert.is(await code('fixedFeeTariffs', ff.id, { increasePercent: 5, increaseScope: 'costOnly' }), 400504)
      assert.is((await h.request('POST', `/tariffs/${tariff.id}/${action}?x=1`, {})).body.error_code, 400103)
    }
    assert.equal((await h.request('GET', `/tariffs/${tariff.id}`)).body, tariff, 'nothing changed')
  })

  test('an unknown action name (contract 2): 404001 for a missing tariff, then 400103, 400100, then 400501, for any key', async ({ h }) => {
    const { tariff } = await callTariff(h, 'Unknown Action')
    const ff = (await fixedFeeTariff(h, 'Unknown Action FF')).tariff
    for (const [kind, id] of [['tariffs', tariff.id], ['fixedFeeTariffs', ff.id]]) {
      for (const key of [h.keys.admin, h.keys.low]) {
        const r = await act(h, kind, id, 'fly', { increasePercent: 5 }, key)
        assert.equal([r.status, r.body.error_code], [400, 400501], `${kind} ${JSON.stringify(r.body)}`)
        assert.equal(Object.keys(r.body), ['error', 'error_code', 'hint'])
        assert.match(r.body.hint, 'applyIncrease')
        assert.is((await act(h, kind, '999999', 'fly', {}, key)).body.error_code, 404001, 'the item before the name')
        assert.is((await act(h, kind, id, 'applyincrease', {}, key)).body.error_code, 400501, 'names are case-sensitive')
      }
      assert.is((await act(h, kind, '999999', 'fly/', {})).body.error_code, 404001, 'a trailing slash is optional')
      assert.is((await h.request('POST', `/${kind}/999999/fly?x=1`, {})).body.error_code, 404001)
      assert.is((await h.request('POST', `/${kind}/${id}/fly?x=1`, {})).body.error_code, 400103)
      const raw = await h.request('POST', `/${kind}/${id}/fly`, undefined, { raw: '{not json', headers: { 'content-type': 'application/json' } })
      assert.is(raw.body.error_code, 400100, 'body syntax before the action name')
      // The rates and the history keep their own routes and methods.
      const details = kind === 'tariffs' ? 'tariffDetails' : 'fixedFeeTariffDetails'
      assert.is((await h.request('GET', `/${kind}/${id}/${details}`)).status, 200)
      assert.is((await h.request('GET', `/${kind}/${id}/history`)).status, 200)
      for (const method of ['POST', 'PUT']) {
        const history = await h.request(method, `/${kind}/${id}/history`, {})
        assert.equal([history.status, history.headers.get('allow')], [405, 'GET'], `${method} history`)
      }
      const get = await h.request('GET', `/${kind}/${id}/fly`)
      assert.equal([get.status, get.headers.get('allow')], [405, 'POST'], 'an action path takes POST')
    }
    assert.equal((await h.request('GET', `/tariffs/${tariff.id}`)).body, tariff, 'nothing changed')
  })

  test('presets discovery lists the increase scopes each kind of tariff takes', async ({ h }) => {
    const fixed = await h.request('GET', '/presets/fixedFeeTariffs/')
    assert.is(fixed.status, 200)
    assert.equal(fixed.body.increaseScope, ['recurringOnly', 'recurringAndConnections'])
    const calls = await h.request('GET', '/presets/tariffs/')
    assert.is(calls.status, 200)
    assert.equal(calls.body.increaseScope, ['costOnly', 'allCharges'])
    assert.not.ok('increaseOriginalID' in fixed.body, 'a tariff ID is not a preset (contract 4)')
  })

  test('the OpenAPI document describes both actions with their parameters', async ({ h }) => {
    const doc = (await h.request('GET', '/openapi.json')).body
    const apply = doc.paths['/backend/api/v1/fixedFeeTariffs/{id}/applyIncrease'].post
    assert.ok(apply.responses['403'])
    const schema = apply.requestBody.content['application/json'].schema
    assert.equal(schema.required, ['increasePercent', 'increaseScope'])
    assert.equal(schema.properties.increaseScope.enum, ['recurringOnly', 'recurringAndConnections'])
    const version = doc.paths['/backend/api/v1/tariffs/{id}/createIncreaseVersion'].post
    assert.is(version.responses['403'], undefined)
    assert.equal(version.requestBody.content['application/json'].schema.properties.increaseScope.enum, ['costOnly', 'allCharges'])
  })

  test('an increase that would raise a price beyond the amounts accepted is refused (400504 naming the price) and writes nothing', async ({ h }) => {
    const { tariff, rental } = await fixedFeeTariff(h, 'Too Big')
    const big = await h.request('POST', `/fixedFeeTariffs/${tariff.id}/fixedFeeTariffDetails`, { description: 'Trunk', serviceCharge: '99999999999.9999' })
    assert.is(big.status, 201, big.text)
    const last = (await h.request('GET', `/fixedFeeTariffs/${tariff.id}/history`)).body.length
    for (const action of ['applyIncrease', 'createIncreaseVersion']) {
      for (const increaseEffectiveDate of [undefined, '2026-03-01']) {
        const r = await act(h, 'fixedFeeTariffs', tariff.id, action, { increasePercent: 10, increaseScope: 'recurringOnly', increaseEffectiveDate })
        assert.is(r.status, 400, r.text)
        assert.is(r.body.error_code, 400504)
        assert.match(r.body.error, `serviceCharge of fixed fee tariff detail ${big.body.id}`)
      }
    }
    const rows = (await h.request('GET', `/fixedFeeTariffs/${tariff.id}/fixedFeeTariffDetails`)).body
    assert.equal(rows.map((d: any) => [d.id, d.serviceCharge, d.endDate]), [[rental.id, 12.5, null], [big.body.id, 99999999999.9999, null]], 'all or nothing')
    assert.is((await h.request('GET', `/fixedFeeTariffs/${tariff.id}`)).body.increasePercent, null)
    assert.is((await h.request('GET', `/fixedFeeTariffs/${tariff.id}/history`)).body.length, last)
    assert.equal((await h.request('GET', '/fixedFeeTariffs?limit=1000')).body.filter((x: any) => x.increaseOriginalID === tariff.id), [], 'no copy')
    // A call tariff's Number price likewise (accepted below 1e15).
    const t = (await h.request('POST', '/tariffs', { name: 'Big Base', baseCost: 9e14 })).body
    const r = await act(h, 'tariffs', t.id, 'applyIncrease', { increasePercent: 20, increaseScope: 'costOnly' })
    assert.is(r.body.error_code, 400504, r.text)
    assert.match(r.body.error, 'baseCost of call tariff')
    assert.is((await h.request('GET', `/tariffs/${t.id}`)).body.baseCost, 9e14)
    // Within range it applies, and the raised row round-trips.
    assert.is((await act(h, 'fixedFeeTariffs', tariff.id, 'applyIncrease', { increasePercent: -10, increaseScope: 'recurringOnly' })).status, 200)
    const raised = (await h.request('GET', `/fixedFeeTariffDetails/${big.body.id}`)).body
    assert.is(raised.serviceCharge, 89999999999.9999)
    assert.is((await h.request('PATCH', `/fixedFeeTariffDetails/${big.body.id}`, raised)).status, 200)
  })

  test.run()
}
