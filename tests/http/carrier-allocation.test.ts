import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { rateUnratedCalls } from '../../core/rating/rate-unrated-calls.js'
import type { DateOnly } from '../../core/dates/date-only.js'

// Contract 17.1. Wed 2026-01-14 10:00 UTC is day time; 61 s rounds to 2 minutes at 0.05.
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const csv = (...rows: string[]) => [header, ...rows].join('\n') + '\n'

let serial = 0
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`carrierCallAllocation (contract 17.1) [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test("a mixed two-carrier file: only the allocated carrier's records bill the number; the others are stored, ignored, never billed", async ({ h }) => {
    const t = await h.request('POST', '/tariffs', { name: `Alloc${++serial}`, baseRoundSeconds: 60 })
    await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05' })
    // The customer allows Gamma; one number follows it, the other names its own carrier (it wins).
    const c = (await h.request('POST', '/customers', { carrierCallAllocation: 'Gamma', defaultNationalTariff: `Alloc${serial}` })).body.id
    const a = `01632 98${String(1000 + serial).padStart(4, '0')}`
    const b = `01632 99${String(1000 + serial).padStart(4, '0')}`
    const na = (await h.request('POST', `/customers/${c}/numbers`, { number: a })).body.id
    const nb = (await h.request('POST', `/customers/${c}/numbers`, { number: b, carrierCallAllocation: 'Daisy' })).body.id
    const d = (s: string) => s.replaceAll(' ', '')
    const body = csv(
      `${d(a)},01632960999,2026-01-14T10:00:00Z,61,NAT,national,Gamma`,
      `${d(a)},01632960999,2026-01-14T10:01:00Z,61,NAT,national,Daisy`,
      `${d(a)},01632960999,2026-01-14T10:02:00Z,61,NAT,national,gamma`,
      `${d(b)},01632960999,2026-01-14T10:03:00Z,61,NAT,national,Gamma`,
      `${d(b)},01632960999,2026-01-14T10:04:00Z,61,NAT,national,Daisy`,
    )
    const r = await h.request('POST', '/usageFiles', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.rows, r.body.imported, r.body.rated, r.body.ignored, r.body.unbilled], [5, 5, 3, 2, 0])
    const calls = async (n: string) => (await h.request('GET', `/numbers/${n}/calls?limit=100`)).body.map((x: any) => [x.carrier, x.rated, x.cost, x.ignoredReason, x.unbilledReason])
    assert.equal(await calls(na), [
      ['Gamma', true, 0.1, null, null],
      ['Daisy', false, null, 'carrier', null],
      ['gamma', true, 0.1, null, null],
    ])
    assert.equal(await calls(nb), [
      ['Gamma', false, null, 'carrier', null],
      ['Daisy', true, 0.1, null, null],
    ])
    // Re-sent: every record a duplicate; the counts are of what this file stored (none).
    const again = await h.request('POST', '/usageFiles', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    assert.equal([again.body.imported, again.body.duplicates, again.body.rated, again.body.ignored], [0, 5, 0, 0])
  })

  test('a record imported before its number exists is ignored for carrier when rated later (a run rates the unrated first)', async ({ h }) => {
    const t = await h.request('POST', '/tariffs', { name: `Alloc${++serial}`, baseRoundSeconds: 60 })
    await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05' })
    const a = `01632 97${String(1000 + serial).padStart(4, '0')}`
    const d = a.replaceAll(' ', '')
    const body = csv(`${d},01632960999,2026-01-14T10:00:00Z,61,NAT,national,Gamma`, `${d},01632960999,2026-01-14T10:01:00Z,61,NAT,national,Daisy`)
    const r = await h.request('POST', '/usageFiles', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    assert.equal([r.body.rated, r.body.ignored, r.body.unbilled], [0, 0, 2])
    const c = (await h.request('POST', '/customers', { carrierCallAllocation: 'Gamma', defaultNationalTariff: `Alloc${serial}` })).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: a })).body.id
    await rateUnratedCalls(h.platform.context, '2026-01-31' as DateOnly)
    const calls = (await h.request('GET', `/numbers/${n}/calls?limit=100`)).body.map((x: any) => [x.carrier, x.customerID, x.rated, x.cost, x.ignoredReason, x.unbilledReason])
    assert.equal(calls, [
      ['Gamma', c, true, 0.1, null, null],
      ['Daisy', c, false, null, 'carrier', null],
    ])
  })

  test.run()
}
