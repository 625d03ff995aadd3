import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { usageLines } from '../../adapters/csv/usage-lines.js'
import { mergePresets } from '../../core/presets/presets.js'
import { importUsageFile } from '../../core/rating/import-usage.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Discount plan allowances (contract 11) through the API, on every database. The tariff: rounded
 * up to whole minutes, 0.02 connection + 0.10 a minute, at least 0.05 for a charged call.
 * 'Five Mobile' gives 5 minutes (300 s) of mobile calls a month.
 */
const presets = mergePresets({
  discountPlans: {
    None: { callClasses: [], allowanceMinutes: 0, period: 'Monthly' },
    'Five Mobile': { callClasses: ['mobile'], allowanceMinutes: 5, period: 'Monthly' },
    'Ten UK Band': { callClasses: ['national'], chargeBands: ['UK'], allowanceMinutes: 10, period: 'Monthly' },
  },
})

const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const csv = (rows: readonly string[]) => [header, ...rows].join('\n') + '\n'
let dialled = 0
/** A mobile call from `from` (a weekday, day time in January and February 2026). */
const call = (from: string, start: string, seconds: number, callClass = 'mobile', band = 'MOB') =>
  `${from},07700${String(900000 + dialled++).padStart(6, '0')},${start},${seconds},${band},${callClass},Gamma`

async function upload(h: Harness, rows: readonly string[]): Promise<void> {
  const r = await h.request('POST', '/usageFiles?name=calls.csv', undefined, { raw: csv(rows), headers: { 'content-type': 'text/csv' } })
  assert.is(r.status, 201, JSON.stringify(r.body))
}

/** [startTime, cost, ratedDuration, allowanceSeconds] of a number's calls, in start order. */
async function callsOf(h: Harness, number: string): Promise<[string, number, number, number | null][]> {
  const calls = (await h.request('GET', `/numbers/${number}/calls`)).body as any[]
  return calls.map((c) => [c.startTime.slice(0, 16), c.cost, c.ratedDuration, c.allowanceSeconds] as [string, number, number, number | null]).sort((a, b) => (a[0] < b[0] ? -1 : 1))
}

let phone = 0
async function newNumber(h: Harness, customer: string, body: Record<string, unknown> = {}): Promise<{ id: string; number: string }> {
  const number = `01632${String(970000 + phone++).padStart(6, '0')}`
  const r = await h.request('POST', `/customers/${customer}/numbers`, { number, ...body })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return { id: r.body.id, number }
}

const newCustomer = async (h: Harness) => (await h.request('POST', '/customers', { defaultMobileTariff: 'UK Mobile', defaultNationalTariff: 'UK Mobile' })).body.id as string

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`discount plan allowances [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { presets, now: '2026-03-15T10:00:00.000Z' })
    const h = ctx.h
    const t = (await h.request('POST', '/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60, baseCostMin: 0.05 })).body.id
    for (const band of ['MOB', 'UK', 'INT']) {
      for (const timeBand of ['day', 'evening', 'weekend']) await h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: band, timeBand, cost: '0.10', costConnection: '0.02' })
    }
  })
  test.after(async (ctx) => ctx.h.close())

  test('a call that crosses the allowance is charged pro rata for its part beyond; the connection charge stays', async ({ h }) => {
    const c = await newCustomer(h)
    const a = await newNumber(h, c, { discountPlan1: 'Five Mobile' })
    await upload(h, [call(a.number, '2026-01-14T10:00:00Z', 110), call(a.number, '2026-01-14T11:00:00Z', 200), call(a.number, '2026-01-14T12:00:00Z', 30)])
    assert.equal(await callsOf(h, a.id), [
      // 110 s rates as 120 s, all covered: the connection alone, no minimum.
      ['2026-01-14T10:00', 0.02, 120, 120],
      // 200 s rates as 240 s; 180 s are left: 60 s charged, 0.02 + 0.10 × 1.
      ['2026-01-14T11:00', 0.12, 240, 180],
      // Nothing left: 60 s charged.
      ['2026-01-14T12:00', 0.12, 60, 0],
    ])
    // A call of a class the plan does not cover shows no allowance at all.
    await upload(h, [call(a.number, '2026-01-14T13:00:00Z', 60, 'national', 'UK')])
    assert.equal((await callsOf(h, a.id)).at(-1), ['2026-01-14T13:00', 0.12, 60, null])
  })

  test('two numbers naming one pool share it, with a feature’s minutes × multiplier × featureCount', async ({ h }) => {
    const c = await newCustomer(h)
    const b = await newNumber(h, c, { discountPlan1: 'Five Mobile', discountPlanAllowancePoolName: 'Office' })
    const d = await newNumber(h, c, { discountPlanAllowancePoolName: 'Office' })
    // 5 minutes × 0.2 × 2 = 2 minutes more for the pool: 420 s in all.
    const f = await h.request('POST', `/numbers/${d.id}/features`, { featureType: 'Line Rental', featureCount: 2, discountPlan1: 'Five Mobile', discountPlanMultiplier1: 0.2, discountPlanAllowancePoolName: 'Office' })
    assert.is(f.status, 201, JSON.stringify(f.body))
    const other = await newNumber(h, c)
    await upload(h, [call(b.number, '2026-01-14T10:00:00Z', 240), call(d.number, '2026-01-14T10:30:00Z', 240), call(b.number, '2026-01-14T11:00:00Z', 60), call(other.number, '2026-01-14T10:15:00Z', 60)])
    assert.equal(await callsOf(h, b.id), [
      ['2026-01-14T10:00', 0.02, 240, 240],
      ['2026-01-14T11:00', 0.12, 60, 0],
    ])
    // 420 − 240 = 180 s left for d's call: 60 s charged.
    assert.equal(await callsOf(h, d.id), [['2026-01-14T10:30', 0.12, 240, 180]])
    // A number in no pool and with no plan pays in full.
    assert.equal(await callsOf(h, other.id), [['2026-01-14T10:15', 0.12, 60, null]])
  })

  test('each calendar month has its own allowance; a plan covers only its charge bands', async ({ h }) => {
    const c = await newCustomer(h)
    const a = await newNumber(h, c, { discountPlan1: 'Five Mobile', discountPlan2: 'Ten UK Band' })
    await upload(h, [
      call(a.number, '2026-01-30T10:00:00Z', 300),
      call(a.number, '2026-01-30T11:00:00Z', 60),
      call(a.number, '2026-02-02T10:00:00Z', 120),
      call(a.number, '2026-02-02T11:00:00Z', 60, 'national', 'UK'),
      call(a.number, '2026-02-02T12:00:00Z', 60, 'national', 'INT'),
    ])
    assert.equal(await callsOf(h, a.id), [
      ['2026-01-30T10:00', 0.02, 300, 300],
      ['2026-01-30T11:00', 0.12, 60, 0],
      // February starts again with 300 s.
      ['2026-02-02T10:00', 0.02, 120, 120],
      ['2026-02-02T11:00', 0.02, 60, 60],
      // Band INT is not in 'Ten UK Band'.
      ['2026-02-02T12:00', 0.12, 60, null],
    ])
  })

  test('a late file re-allocates its month in start order: earlier calls take the allowance, later ones pay', async ({ h }) => {
    const c = await newCustomer(h)
    const a = await newNumber(h, c, { discountPlan1: 'Five Mobile' })
    await upload(h, [call(a.number, '2026-01-14T10:00:00Z', 120), call(a.number, '2026-01-14T11:00:00Z', 240)])
    assert.equal(await callsOf(h, a.id), [
      ['2026-01-14T10:00', 0.02, 120, 120],
      ['2026-01-14T11:00', 0.12, 240, 180],
    ])
    await upload(h, [call(a.number, '2026-01-13T10:00:00Z', 250)])
    assert.equal(await callsOf(h, a.id), [
      // The late call started first: it takes 300 s of the 300.
      ['2026-01-13T10:00', 0.02, 300, 300],
      // Re-priced: 0.02 + 0.10 × 2 and 0.02 + 0.10 × 4.
      ['2026-01-14T10:00', 0.22, 120, 0],
      ['2026-01-14T11:00', 0.42, 240, 0],
    ])
  })

  test('a billed call keeps what it used: a late earlier call gets only what is left', async ({ h }) => {
    const c = await newCustomer(h)
    const a = await newNumber(h, c, { discountPlan1: 'Five Mobile' })
    await upload(h, [call(a.number, '2026-01-20T10:00:00Z', 120)])
    const { bill } = await import('../support/billing.js')
    await bill(h, '2026-01-31')
    await upload(h, [call(a.number, '2026-01-10T10:00:00Z', 240)])
    assert.equal(await callsOf(h, a.id), [
      // 300 − 120 (billed) = 180 s for the late call: 60 s charged.
      ['2026-01-10T10:00', 0.12, 240, 180],
      ['2026-01-20T10:00', 0.02, 120, 120],
    ])
  })

  test('a drafted call keeps its share while its run is in Review; discarded, its month is allocated again in start order (11, 16.1, 17.6)', async ({ h }) => {
    // A dear band on the suite's tariff: which call the allowance covers then changes the bill.
    const tariff = ((await h.request('GET', '/tariffs?limit=100')).body as any[]).find((t) => t.name === 'UK Mobile').id
    for (const timeBand of ['day', 'evening', 'weekend']) await h.request('POST', `/tariffs/${tariff}/tariffDetails`, { chargeBand: 'DEAR', timeBand, cost: '1.00', costConnection: '0.02' })
    const c = await newCustomer(h)
    const a = await newNumber(h, c, { discountPlan1: 'Five Mobile' })
    await upload(h, [call(a.number, '2026-01-20T10:00:00Z', 120)])
    const run = await h.request('POST', '/billingRuns', { name: 'review', cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested', review: true })
    assert.is(run.status, 201, JSON.stringify(run.body))
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    assert.is((await h.request('GET', `/billingRuns/${run.body.id}`)).body.status, 'Review')
    await upload(h, [call(a.number, '2026-01-10T10:00:00Z', 240, 'mobile', 'DEAR')])
    // The draft holds its call's share as an invoice would: approved, it is billed as drafted.
    assert.equal(await callsOf(h, a.id), [
      ['2026-01-10T10:00', 1.02, 240, 180],
      ['2026-01-20T10:00', 0.02, 120, 120],
    ])
    const discarded = await h.request('PATCH', `/billingRuns/${run.body.id}`, { status: 'Discarded' })
    assert.is(discarded.status, 200, JSON.stringify(discarded.body))
    // Both unbilled again, the month goes in start order, as if no run had drafted it (both
    // kept their shares before, and the corrected run billed 1.04).
    assert.equal(await callsOf(h, a.id), [
      ['2026-01-10T10:00', 0.02, 240, 240],
      ['2026-01-20T10:00', 0.12, 120, 60],
    ])
    const { bill } = await import('../support/billing.js')
    await bill(h, '2026-01-31')
    const charges = ((await h.request('GET', `/customers/${c}/transactions?limit=100`)).body as any[]).filter((t) => t.transactionType === 'Call Charges')
    assert.equal(charges.map((t) => [t.amount, t.approved]), [[0.14, true]])
  })

  test('allowances allocated mid-import (each batch) come out as when allocated once at the end', async ({ h }) => {
    // 1,200 one-minute calls are two batches (IMPORT_BATCH); the month's five earliest, which
    // the allowance covers, are the last records, in the second batch. Allocated after each
    // batch, the first batch's calls take the allowance, and lose it again once the second is in.
    const outcomes: unknown[] = []
    for (const allocateAt of [1, undefined]) {
      const c = await newCustomer(h)
      const a = await newNumber(h, c, { discountPlan1: 'Five Mobile' })
      const stamp = (k: number) => new Date(Date.UTC(2026, 0, 20, 8, 0, k * 10)).toISOString().slice(0, 19) + 'Z'
      const rows = Array.from({ length: 1200 }, (_, i) => call(a.number, stamp(1200 - i), 60))
      const file = await importUsageFile(h.platform.context, usageLines([csv(rows)]), 'late-first.csv', allocateAt === undefined ? {} : { allocateAt })
      assert.is(file.rated, 1200)
      // More than a page of the API: read from the store, in start order.
      const stored = await h.platform.context.store.repository('calls').list({ where: [{ op: 'eq', column: 'numberID', value: a.id }], limit: 2000 })
      const calls = stored.map((k) => [k.startTime, String(k.cost), k.ratedDuration, k.allowanceSeconds] as const).sort((x, y) => (x[0]! < y[0]! ? -1 : 1))
      assert.is(calls.length, 1200)
      assert.equal(calls.slice(0, 5).map((k) => k[3]), [60, 60, 60, 60, 60])
      assert.ok(calls.slice(5).every((k) => k[3] === 0), JSON.stringify(calls.slice(5, 8)))
      outcomes.push(calls.map((k) => k.slice(1)))
    }
    assert.equal(outcomes[0], outcomes[1])
  })

  test('property: charged + allowance = rated seconds, and the result does not depend on the order files arrive in', async ({ h }) => {
    // Few days and minutes, so months meet and calls compete. Each record starts in its own
    // second: calls starting together are ordered by their fingerprint, which holds the calling
    // number, so two customers' alike calls could differ (tests/core/allowances.test.ts covers ties).
    const day = fc.constantFrom(1, 2, 29, 30, 32)
    const record = fc.record({ day, minute: fc.integer({ min: 0, max: 3 }), seconds: fc.integer({ min: 1, max: 400 }), on: fc.integer({ min: 0, max: 2 }), mobile: fc.boolean() })
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1000 }), async (records, files, seed) => {
        // Two customers alike: one gets the files in one order, the other in another.
        const outcomes: string[] = []
        for (const order of ['forward', 'shuffled'] as const) {
          const c = await newCustomer(h)
          const numbers = [
            await newNumber(h, c, { discountPlan1: 'Five Mobile', discountPlanAllowancePoolName: 'P' }),
            await newNumber(h, c, { discountPlanAllowancePoolName: 'P' }),
            await newNumber(h, c, { discountPlan1: 'Five Mobile' }),
          ]
          const rows = records.map((r, i) => {
            const date = new Date(Date.UTC(2026, 0, 1 + r.day, 9, r.minute, i)).toISOString().slice(0, 19) + 'Z'
            return `${numbers[r.on].number},07700${String(800000 + i).padStart(6, '0')},${date},${r.seconds},${r.mobile ? 'MOB' : 'UK'},${r.mobile ? 'mobile' : 'national'},Gamma`
          })
          const parts = Array.from({ length: files }, (_, f) => rows.filter((_, i) => i % files === f))
          // The other order: the files last to first, each file's rows last to first, rotated by the seed.
          const sent = order === 'forward' ? parts : parts.map((p) => [...p].reverse()).reverse()
          if (order === 'shuffled' && sent.length > 1) sent.push(...sent.splice(0, seed % sent.length))
          for (const part of sent) if (part.length) await upload(h, part)
          const calls = (await h.request('GET', `/customers/${c}/calls`)).body as any[]
          for (const k of calls) {
            const used = k.allowanceSeconds ?? 0
            assert.ok(used >= 0 && used <= k.ratedDuration, JSON.stringify(k))
            // charged = rated − used: the cost is the connection plus the charged minutes.
            const charged = k.ratedDuration - used
            const expected = used > 0 ? 0.02 + 0.1 * (charged / 60) : Math.max(0.05, 0.02 + 0.1 * (charged / 60))
            assert.ok(Math.abs(k.cost - expected) < 1e-9, `${JSON.stringify(k)} expected ${expected}`)
          }
          const byNumber = new Map(numbers.map((n, i) => [n.id, i]))
          outcomes.push(JSON.stringify(calls.map((k) => [byNumber.get(k.numberID), k.startTime, k.durationSeconds, k.cost, k.allowanceSeconds]).sort()))
        }
        assert.is(outcomes[1], outcomes[0])
      }),
      { numRuns: 25, seed: 22 },
    )
  })

  test.run()
}
