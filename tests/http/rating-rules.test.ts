import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

// Contract 17.7, with amounts worked by hand. Wed 2026-01-14 10:00 UTC is day time.
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const csv = (...rows: string[]) => [header, ...rows].join('\n') + '\n'
const upload = async (h: Harness, body: string) => {
  const r = await h.request('POST', '/usageFiles?name=calls.csv', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body
}
/** Each call of a number as [callType, startDate, cost]. */
const costs = async (h: Harness, number: string) =>
  (await h.request('GET', `/numbers/${number}/calls?limit=1000`)).body.map((c: any) => [c.callType, c.startTime.slice(0, 10), c.cost])

let serial = 0
/** A tariff with one `any` band row per [band, cost]; returns its ID. */
async function tariff(h: Harness, fields: Record<string, unknown>, rows: [string, string][]): Promise<string> {
  const r = await h.request('POST', '/tariffs', { name: `T${++serial}`, baseRoundSeconds: 60, ...fields })
  assert.is(r.status, 201, JSON.stringify(r.body))
  for (const [chargeBand, cost] of rows) {
    const d = await h.request('POST', `/tariffs/${r.body.id}/tariffDetails`, { chargeBand, timeBand: 'any', cost })
    assert.is(d.status, 201, JSON.stringify(d.body))
  }
  return r.body.id
}
const nameOf = async (h: Harness, id: string) => (await h.request('GET', `/tariffs/${id}`)).body.name as string

/** A customer with one number; its digits are `01632 97xxxx`. */
async function numberWith(h: Harness, fields: Record<string, unknown> = {}, customer: Record<string, unknown> = {}) {
  const c = (await h.request('POST', '/customers', customer)).body.id
  const digits = `016329${String(70000 + ++serial).padStart(5, '0')}`
  const n = await h.request('POST', `/customers/${c}/numbers`, { number: digits, ...fields })
  assert.is(n.status, 201, JSON.stringify(n.body))
  return { customer: c as string, number: n.body.id as string, digits }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`rating rules of contract 17.7 [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test("a bundle feature prices national calls by its own tariff, mobile calls stay on the number's", async ({ h }) => {
    const nat = await nameOf(h, await tariff(h, { baseCostConnection: 0.01 }, [['NAT', '0.05']]))
    const mob = await nameOf(h, await tariff(h, {}, [['MOB', '0.10']]))
    const bundle = await nameOf(h, await tariff(h, {}, [['NAT', '0.02']]))
    const { number, digits } = await numberWith(h, { nationalTariff: nat, mobileTariff: mob })
    const f = await h.request('POST', `/numbers/${number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-01', nationalTariff: bundle })
    assert.is(f.status, 201, JSON.stringify(f.body))
    // 61 s rounds to 2 minutes: national on the bundle 0.02 × 2; mobile on the number's 0.10 × 2.
    await upload(h, csv(`${digits},01632960999,2026-01-14T10:00:00Z,61,NAT,national,Gamma`, `${digits},07700900999,2026-01-14T10:05:00Z,61,MOB,mobile,Gamma`))
    assert.equal(await costs(h, number), [
      ['national', '2026-01-14', 0.04],
      ['mobile', '2026-01-14', 0.2],
    ])
  })

  test('a feature starting mid-month prices only the calls from its start; a customer feature prices numbers with none', async ({ h }) => {
    const nat = await nameOf(h, await tariff(h, { baseCostConnection: 0.01 }, [['NAT', '0.05']]))
    const bundle = await nameOf(h, await tariff(h, {}, [['NAT', '0.02']]))
    const { number, digits, customer } = await numberWith(h, { nationalTariff: nat })
    await h.request('POST', `/numbers/${number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-15', nationalTariff: bundle })
    // Before the 15th: the number's 0.01 + 0.05 × 2; from it: the bundle's 0.02 × 2.
    await upload(h, csv(`${digits},01632960999,2026-01-14T10:00:00Z,61,NAT,national,Gamma`, `${digits},01632960999,2026-01-16T10:00:00Z,61,NAT,national,Gamma`))
    assert.equal(await costs(h, number), [
      ['national', '2026-01-14', 0.11],
      ['national', '2026-01-16', 0.04],
    ])
    // A feature on the customer prices its other number, which has no such feature of its own.
    const cheap = await nameOf(h, await tariff(h, {}, [['NAT', '0.01']]))
    await h.request('POST', `/customers/${customer}/features`, { featureType: 'SIP Channel', startDate: '2026-01-01', nationalTariff: cheap })
    // Its digits from a range numberWith never gives, so no later number of another customer shares them.
    const otherDigits = `016329${90000 + ++serial}`
    const other = (await h.request('POST', `/customers/${customer}/numbers`, { number: otherDigits, nationalTariff: nat })).body.id
    await upload(h, csv(`${otherDigits},01632960999,2026-01-14T11:00:00Z,61,NAT,national,Gamma`, `${digits},01632960999,2026-01-16T11:00:00Z,30,NAT,national,Gamma`))
    assert.equal(await costs(h, other), [['national', '2026-01-14', 0.02]])
    assert.equal((await costs(h, number)).at(-1), ['national', '2026-01-16', 0.02])
  })

  test('two overlapping features: the later start wins, then the higher ID', async ({ h }) => {
    const a = await nameOf(h, await tariff(h, {}, [['NAT', '0.02']]))
    const b = await nameOf(h, await tariff(h, {}, [['NAT', '0.01']]))
    const c = await nameOf(h, await tariff(h, {}, [['NAT', '0.03']]))
    const { number, digits } = await numberWith(h)
    await h.request('POST', `/numbers/${number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-01', nationalTariff: a })
    await h.request('POST', `/numbers/${number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-10', nationalTariff: b })
    await upload(h, csv(`${digits},01632960999,2026-01-05T10:00:00Z,61,NAT,national,Gamma`, `${digits},01632960999,2026-01-14T10:00:00Z,61,NAT,national,Gamma`))
    // The 5th: only the first is active, 0.02 × 2; the 14th: the second started later, 0.01 × 2.
    assert.equal(await costs(h, number), [
      ['national', '2026-01-05', 0.04],
      ['national', '2026-01-14', 0.02],
    ])
    // A third with the same start as the second and a higher ID wins from then on: 0.03 × 2.
    await h.request('POST', `/numbers/${number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-10', nationalTariff: c })
    await upload(h, csv(`${digits},01632960999,2026-01-15T10:00:00Z,61,NAT,national,Gamma`))
    assert.equal((await costs(h, number)).at(-1), ['national', '2026-01-15', 0.06])
  })

  test('a child tariff with one own band takes the rest, and its rounding, from its grandparent; cycles are refused', async ({ h }) => {
    const grand = await tariff(h, {}, [['NAT', '0.04'], ['MOB', '0.08']])
    const parent = await tariff(h, { parentTariff: grand, baseRoundSeconds: null }, [['INT', '0.50']])
    const child = await tariff(h, { parentTariff: parent, baseRoundSeconds: null }, [['NAT', '0.03']])
    const name = await nameOf(h, child)
    const { number, digits } = await numberWith(h, { nationalTariff: name, mobileTariff: name, internationalTariff: name })
    await upload(
      h,
      csv(
        `${digits},01632960999,2026-01-14T10:00:00Z,60,NAT,national,Gamma`,
        `${digits},07700900999,2026-01-14T10:01:00Z,61,MOB,mobile,Gamma`,
        `${digits},0033100000,2026-01-14T10:03:00Z,60,INT,international,Gamma`,
      ),
    )
    // National its own 0.03; mobile the grandparent's 0.08 × 2 (61 s to the grandparent's 60 s
    // rounding); international the parent's 0.50.
    assert.equal((await costs(h, number)).map((c: any[]) => c[2]), [0.03, 0.16, 0.5])
    const before = (await h.request('GET', `/tariffs/${grand}`)).body
    for (const parentTariff of [child, grand]) {
      const r = await h.request('PATCH', `/tariffs/${grand}`, { parentTariff })
      assert.is(r.status, 400, JSON.stringify(r.body))
      assert.is(r.body.error_code, 400101)
      assert.match(r.body.error, /parentTariff/)
    }
    assert.is((await h.request('GET', `/tariffs/${grand}`)).body.parentTariff, before.parentTariff)
  })

  test("a child's own row that matches a call decides, whatever its time band; the parent lends only where none matches", async ({ h }) => {
    const parent = await tariff(h, {}, [['MOB', '0.20']])
    const child = await tariff(h, { parentTariff: parent }, [['NAT', '0.02']])
    const rows = [
      [parent, { chargeBand: 'NAT', timeBand: 'day', cost: 0.1 }],
      [parent, { chargeBand: 'NAT', timeBand: 'evening', cost: 0.05 }],
      [child, { chargeBand: 'MOB', timeBand: 'any', cost: 0.03, startDate: '2026-01-15' }],
    ] as const
    for (const [id, row] of rows) assert.is((await h.request('POST', `/tariffs/${id}/tariffDetails`, row)).status, 201)
    const name = await nameOf(h, child)
    const { number, digits } = await numberWith(h, { nationalTariff: name, mobileTariff: name })
    await upload(
      h,
      csv(
        `${digits},01632960999,2026-01-14T10:00:00Z,60,NAT,national,Gamma`,
        `${digits},01632960999,2026-01-14T20:00:00Z,60,NAT,national,Gamma`,
        `${digits},07700900999,2026-01-14T10:05:00Z,60,MOB,mobile,Gamma`,
        `${digits},07700900999,2026-01-16T10:05:00Z,60,MOB,mobile,Gamma`,
      ),
    )
    // National by day and by evening: the child's own NAT/any 0.02, not the parent's exact bands.
    // Mobile on the 14th: the child's row is not yet in force, so the parent's 0.20; then its 0.03.
    assert.equal(await costs(h, number), [
      ['national', '2026-01-14', 0.02],
      ['national', '2026-01-14', 0.02],
      ['mobile', '2026-01-14', 0.2],
      ['mobile', '2026-01-16', 0.03],
    ])
  })

  test('two-part price: a 125 s call at 0.10 for the first 60 s, then 0.03 connection + 0.05 a minute', async ({ h }) => {
    const t = await tariff(h, { baseRoundSeconds: null, baseInitialCost: '0.10', baseInitialDuration: 60, baseCostSecondaryConnection: 0.03, baseRoundPence: 1 }, [['NAT', '0.05']])
    const { number, digits } = await numberWith(h, { nationalTariff: await nameOf(h, t) })
    await upload(h, csv(`${digits},01632960999,2026-01-14T10:00:00Z,125,NAT,national,Gamma`, `${digits},01632960999,2026-01-14T10:05:00Z,30,NAT,national,Gamma`))
    // 0.10 + 0.03 + 0.05 × 65/60 = 0.18417, up to the next penny 0.19; 30 s is within the first part: 0.10.
    assert.equal((await costs(h, number)).map((c: any[]) => c[2]), [0.19, 0.1])
  })

  test('who may have a tariff: each refusal names the field and rule, writes nothing; holders keep theirs', async ({ h }) => {
    const owner = (await h.request('POST', '/customers', { customerGroups: ['VIP'], currency: 'GBP' })).body.id
    const other = (await h.request('POST', '/customers', { customerGroups: ['Direct'], currency: 'EUR' })).body.id
    const make = async (fields: Record<string, unknown>) => nameOf(h, await tariff(h, fields, []))
    const cases: [Record<string, unknown>, string][] = [
      [{ customerID: owner }, 'customerID'],
      [{ customerGroups: 'VIP, Key Accounts' }, 'customerGroups'],
      [{ currency: 'GBP' }, 'currency'],
      [{ availability: 'Withdrawn' }, 'availability'],
    ]
    for (const [fields, field] of cases) {
      const name = await make(fields)
      const before = (await h.request('GET', `/customers/${other}`)).body
      const r = await h.request('PATCH', `/customers/${other}`, { defaultNationalTariff: name })
      assert.is(r.status, 400, JSON.stringify(r.body))
      assert.is(r.body.error_code, 400101)
      assert.match(r.body.error, 'defaultNationalTariff')
      assert.match(r.body.error, `its ${field}`)
      assert.equal((await h.request('GET', `/customers/${other}`)).body, before)
      // The customer it is for (in the group, in the currency) may have it, unless withdrawn.
      const ok = await h.request('PATCH', `/customers/${owner}`, { defaultNationalTariff: name })
      assert.is(ok.status, field === 'availability' ? 400 : 200, JSON.stringify(ok.body))
    }
    // A customer without a currency is billed in GBP: a GBP tariff is its currency's, a EUR one is not.
    const plain = (await h.request('POST', '/customers', {})).body.id
    assert.is((await h.request('PATCH', `/customers/${plain}`, { defaultNationalTariff: await make({ currency: 'GBP' }) })).status, 200)
    const euro = await h.request('PATCH', `/customers/${plain}`, { defaultMobileTariff: await make({ currency: 'EUR' }) })
    assert.equal([euro.status, euro.body.error_code], [400, 400101], JSON.stringify(euro.body))
    assert.match(euro.body.error, 'its currency')
    // forNumberTypes: numbers of those types, and features on them.
    const typedID = await tariff(h, { forNumberTypes: 'Mobile' }, [])
    const typed = await nameOf(h, typedID)
    const landline = await h.request('POST', `/customers/${owner}/numbers`, { number: '01632 975000', numberType: 'Geographic', mobileTariff: typed })
    assert.is(landline.status, 400, JSON.stringify(landline.body))
    assert.match(landline.body.error, 'its forNumberTypes')
    const mobile = await h.request('POST', `/customers/${owner}/numbers`, { number: '07700 975000', numberType: 'Mobile', mobileTariff: typed })
    assert.is(mobile.status, 201, JSON.stringify(mobile.body))
    const f = await h.request('POST', `/numbers/${mobile.body.id}/features`, { featureType: 'SIP Channel', mobileTariff: typed })
    assert.is(f.status, 201, JSON.stringify(f.body))
    // Withdrawn later: the number keeps it, and a PATCH of it or of another field still succeeds.
    assert.is((await h.request('PATCH', `/tariffs/${typedID}`, { availability: 'Withdrawn' })).status, 200)
    const keep = await h.request('PATCH', `/numbers/${mobile.body.id}`, { mobileTariff: typed, description: 'kept' })
    assert.is(keep.status, 200, JSON.stringify(keep.body))
    assert.is(keep.body.mobileTariff, typed)
  })

  test("forCarriers: refused where the calls are known to come from another carrier; wholesaleForCarrierIDs: where another provides it", async ({ h }) => {
    const refused = (r: { status: number; body: any }, field: string) => {
      assert.is(r.status, 400, JSON.stringify(r.body))
      assert.is(r.body.error_code, 400101)
      assert.match(r.body.error, `its ${field}`)
    }
    const created = (r: { status: number; body: any }) => assert.ok(r.status === 201 || r.status === 200, JSON.stringify(r.body))
    const calls = await nameOf(h, await tariff(h, { forCarriers: 'Gamma; daisy' }, []))
    const anyCarrier = (await h.request('POST', '/customers', {})).body.id
    const gammaOnly = (await h.request('POST', '/customers', { carrierCallAllocation: 'Gamma' })).body.id
    const number = (customer: string, fields: Record<string, unknown>) =>
      h.request('POST', `/customers/${customer}/numbers`, { number: `016329${String(80000 + ++serial)}`, ...fields })
    // The carrier its (or its customer's) carrierCallAllocation names, else its callCarrier; names ignore case.
    refused(await number(anyCarrier, { callCarrier: 'BT Wholesale', nationalTariff: calls }), 'forCarriers')
    refused(await number(gammaOnly, { carrierCallAllocation: 'Vodafone', callCarrier: 'Gamma', nationalTariff: calls }), 'forCarriers')
    const gamma = await number(anyCarrier, { callCarrier: 'Gamma', nationalTariff: calls })
    created(gamma)
    created(await number(anyCarrier, { carrierCallAllocation: 'Daisy', callCarrier: 'Colt', nationalTariff: calls }))
    created(await number(gammaOnly, { nationalTariff: calls }))
    created(await h.request('POST', `/numbers/${gamma.body.id}/features`, { featureType: 'SIP Channel', nationalTariff: calls }))
    // No known carrier (every carrier's calls may bill it): not refused, as contract 17.7 does not.
    created(await number(anyCarrier, { nationalTariff: calls }))
    created(await h.request('PATCH', `/customers/${anyCarrier}`, { defaultNationalTariff: calls }))
    refused(await h.request('PATCH', `/customers/${(await h.request('POST', '/customers', { carrierCallAllocation: 'Vodafone' })).body.id}`, { defaultNationalTariff: calls }), 'forCarriers')
    created(await h.request('PATCH', `/customers/${gammaOnly}`, { defaultNationalTariff: calls }))

    const fixedFee = await h.request('POST', '/fixedFeeTariffs', { name: `F${++serial}`, retail: 'Wholesale', wholesaleForCarrierIDs: ['Openreach'] })
    assert.is(fixedFee.status, 201, JSON.stringify(fixedFee.body))
    const fee = fixedFee.body.name as string
    // A feature's carrier, else its number's lineCarrier, else its service's provider.
    const line = await number(anyCarrier, { lineCarrier: 'Openreach', fixedFeeTariff: fee })
    created(line)
    refused(await number(anyCarrier, { lineCarrier: 'Colt', fixedFeeTariff: fee }), 'wholesaleForCarrierIDs')
    created(await h.request('POST', `/numbers/${line.body.id}/features`, { featureType: 'Line Rental', fixedFeeTariff: fee }))
    refused(await h.request('POST', `/numbers/${line.body.id}/features`, { featureType: 'Line Rental', carrier: 'Colt', fixedFeeTariff: fee }), 'wholesaleForCarrierIDs')
    const service = await h.request('POST', `/customers/${anyCarrier}/services`, { provider: 'Openreach', fixedFeeTariff: fee })
    created(service)
    created(await h.request('POST', `/services/${service.body.id}/features`, { featureType: 'Line Rental', fixedFeeTariff: fee }))
    refused(await h.request('POST', `/customers/${anyCarrier}/services`, { provider: 'Gamma', fixedFeeTariff: fee }), 'wholesaleForCarrierIDs')
    // A customer, or a number with no lineCarrier, has no known provider: not refused.
    created(await h.request('PATCH', `/customers/${anyCarrier}`, { fixedFeeTariff: fee }))
    created(await number(anyCarrier, { fixedFeeTariff: fee }))
    // Holders keep what they have when their carrier changes later.
    const moved = await h.request('PATCH', `/numbers/${line.body.id}`, { lineCarrier: 'Colt' })
    assert.is(moved.status, 200, JSON.stringify(moved.body))
    assert.is(moved.body.fixedFeeTariff, fee)
  })

  test("calls at a feature's, a number's and the customer's VAT rates land in separate Call Charges rows", async ({ h }) => {
    const nat = await nameOf(h, await tariff(h, {}, [['NAT', '0.05']]))
    const mob = await nameOf(h, await tariff(h, {}, [['MOB', '0.10']]))
    const bundle = await nameOf(h, await tariff(h, {}, [['NAT', '0.05']]))
    const { customer, number, digits } = await numberWith(h, { nationalTariff: nat, mobileTariff: mob }, { VATRate: 'Zero Rated', VATRateCalls: 'Standard 20%' })
    const f = await h.request('POST', `/numbers/${number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-15', nationalTariff: bundle, VATRateCalls: 'Reduced 5%' })
    assert.is(f.status, 201, JSON.stringify(f.body))
    const zero = `016329${String(70000 + ++serial).padStart(5, '0')}`
    const other = await h.request('POST', `/customers/${customer}/numbers`, { number: zero, nationalTariff: nat, VATRateCalls: 'Zero Rated' })
    assert.is(other.status, 201, JSON.stringify(other.body))
    // Each 61 s call rounds to 2 minutes. Before the feature: national 0.05 × 2 = 0.10 at the
    // customer's 20 %. From its start: national 0.05 × 2 twice = 0.20 at the feature's 5 %
    // (VAT 0.01); mobile, which the feature does not price, 0.10 × 2 = 0.20 at 20 %: that row
    // 0.30, VAT 0.06. The other number's national call 0.10 at its own Zero Rated, VAT 0.
    await upload(
      h,
      csv(
        `${digits},01632960999,2026-01-14T10:00:00Z,61,NAT,national,Gamma`,
        `${digits},01632960999,2026-01-20T10:00:00Z,61,NAT,national,Gamma`,
        `${digits},01632960999,2026-01-21T10:00:00Z,61,NAT,national,Gamma`,
        `${digits},07700900999,2026-01-20T10:05:00Z,61,MOB,mobile,Gamma`,
        `${zero},01632960999,2026-01-20T10:00:00Z,61,NAT,national,Gamma`,
      ),
    )
    const { bill } = await import('../support/billing.js')
    await bill(h, '2026-01-31')
    const rows = (await h.request('GET', `/customers/${customer}/transactions?transactionType=Call%20Charges`)).body
    assert.equal(
      rows.map((t: any) => [t.numberID === number ? 'featured' : 'other', t.VATRate, t.amount, t.VATAmount, t.quantity, t.dateFrom, t.dateTo]).sort(),
      [
        ['featured', 'Reduced 5%', 0.2, 0.01, 2, '2026-01-20', '2026-01-21'],
        ['featured', 'Standard 20%', 0.3, 0.06, 2, '2026-01-14', '2026-01-20'],
        ['other', 'Zero Rated', 0.1, 0, 1, '2026-01-20', '2026-01-20'],
      ],
    )
  })

  test("a call's row takes the VAT rate of the feature that priced it, whatever features are added or dropped after it was rated", async ({ h }) => {
    const nat = await nameOf(h, await tariff(h, {}, [['NAT', '0.05']]))
    const bundle = await nameOf(h, await tariff(h, {}, [['NAT', '0.02']]))
    const { act, bill } = await import('../support/billing.js')
    // Rated by the number's tariff, then a feature back-dated over the call: 600 s at 0.05 a minute
    // = 0.50, still the number's price, so still the customer's 20 % (VAT 0.10), not the feature's 5 %.
    const later = await numberWith(h, { nationalTariff: nat }, { VATRate: 'Standard 20%' })
    await upload(h, csv(`${later.digits},01632960999,2026-01-20T10:00:00Z,600,NAT,national,Gamma`))
    const added = await h.request('POST', `/numbers/${later.number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-01', nationalTariff: bundle, VATRateCalls: 'Reduced 5%' })
    assert.is(added.status, 201, JSON.stringify(added.body))
    // Rated by a feature's tariff, 600 s at 0.02 a minute = 0.20, then the feature dropped before the
    // call's day: still the feature's price, so still its 5 % (VAT 0.01), not the customer's 20 %.
    const dropped = await numberWith(h, { nationalTariff: nat }, { VATRate: 'Standard 20%' })
    const f = await h.request('POST', `/numbers/${dropped.number}/features`, { featureType: 'SIP Channel', startDate: '2026-01-01', nationalTariff: bundle, VATRateCalls: 'Reduced 5%' })
    assert.is(f.status, 201, JSON.stringify(f.body))
    await upload(h, csv(`${dropped.digits},01632960999,2026-01-20T10:00:00Z,600,NAT,national,Gamma`))
    await act(h, `/features/${f.body.id}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-10' })
    await bill(h, '2026-01-31')
    const rows = async (customer: string) =>
      (await h.request('GET', `/customers/${customer}/transactions?transactionType=Call%20Charges`)).body.map((t: any) => [t.VATRate, t.amount, t.VATAmount, t.quantity])
    assert.equal(await rows(later.customer), [['Standard 20%', 0.5, 0.1, 1]])
    assert.equal(await rows(dropped.customer), [['Reduced 5%', 0.2, 0.01, 1]])
  })

  test.run()
}
