import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mergePresets } from '../../core/presets/presets.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A dropped number's late calls use the allowances that were in force when they were made
 * (contract 11, 5.5), on every database: a number's feature dropped with it gives its plan to
 * calls up to its own bill-to date, a feature dropped on its own to calls up to its. The tariff:
 * whole minutes, 0.02 connection + 0.10 a minute, at least 0.05; 'Five Mobile' is 300 s a month.
 */
const presets = mergePresets({ discountPlans: { None: { callClasses: [], allowanceMinutes: 0, period: 'Monthly' }, 'Five Mobile': { callClasses: ['mobile'], allowanceMinutes: 5, period: 'Monthly' } } })

const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
let dialled = 0
const row = (from: string, start: string, seconds: number) => `${from},07700${String(910000 + dialled++).padStart(6, '0')},${start}T10:00:00Z,${seconds},MOB,mobile,Gamma`

async function upload(h: Harness, rows: readonly string[]): Promise<void> {
  const r = await h.request('POST', '/usageFiles?name=calls.csv', undefined, { raw: [header, ...rows].join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
  assert.is(r.status, 201, JSON.stringify(r.body))
}

/** [day, cost, ratedDuration, allowanceSeconds] of a customer's calls, in start order. */
async function callsOf(h: Harness, customer: string): Promise<[string, number, number, number | null][]> {
  const calls = (await h.request('GET', `/customers/${customer}/calls?limit=1000`)).body as any[]
  return calls.map((c) => [c.startTime.slice(0, 10), c.cost, c.ratedDuration, c.allowanceSeconds] as [string, number, number, number | null]).sort((a, b) => (a[0] < b[0] ? -1 : 1))
}

const act = async (h: Harness, path: string, action: string, body: object) => {
  const r = await h.request('POST', `${path}?action=${action}`, body)
  assert.is(r.status, 200, JSON.stringify(r.body))
}

let phone = 0
/**
 * A customer whose number has a feature giving 'Five Mobile', and a feature of its own on the
 * customer giving 'Five Mobile' too, dropped on its own on 11 January.
 */
async function setUp(h: Harness): Promise<{ customer: string; number: string; digits: string }> {
  const customer = (await h.request('POST', '/customers', { defaultMobileTariff: 'UK Mobile' })).body.id as string
  const digits = `01632${String(980000 + phone++).padStart(6, '0')}`
  const number = (await h.request('POST', `/customers/${customer}/numbers`, { number: digits })).body.id as string
  for (const path of [`/numbers/${number}/features`, `/customers/${customer}/features`]) {
    const f = await h.request('POST', path, { featureType: 'Line Rental', discountPlan1: 'Five Mobile' })
    assert.is(f.status, 201, JSON.stringify(f.body))
    if (path.startsWith('/customers')) await act(h, `/features/${f.body.id}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-11' })
  }
  return { customer, number, digits }
}

const dropNumber = (h: Harness, number: string) => act(h, `/numbers/${number}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-25' })
const january = (digits: string) => [row(digits, '2026-01-10', 240), row(digits, '2026-01-11', 120), row(digits, '2026-01-12', 120), row(digits, '2026-01-25', 60)]

/** What January's calls are charged, arriving before the number's drop or after it. */
const expected: [string, number, number, number | null][] = [
  // The number's feature: 240 of its 300 s.
  ['2026-01-10', 0.02, 240, 240],
  // Its last 60 s, and 60 of the customer's feature, in force through the 11th.
  ['2026-01-11', 0.02, 120, 120],
  // Nothing left in force: charged in full.
  ['2026-01-12', 0.22, 120, 0],
  // On the drop date: still the number's, and its feature's (billed through that day).
  ['2026-01-25', 0.12, 60, 0],
]

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`allowances of dropped numbers and features [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { presets, now: '2026-03-15T10:00:00.000Z' })
    const t = (await ctx.h.request('POST', '/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60, baseCostMin: 0.05 })).body.id
    for (const timeBand of ['day', 'evening', 'weekend']) await ctx.h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: 'MOB', timeBand, cost: '0.10', costConnection: '0.02' })
  })
  test.after(async (ctx) => ctx.h.close())

  test("a file arriving after a number's drop uses the allowances its calls had, as one arriving before it", async ({ h }) => {
    const before = await setUp(h)
    await upload(h, january(before.digits))
    await dropNumber(h, before.number)
    const after = await setUp(h)
    await dropNumber(h, after.number)
    await upload(h, january(after.digits))
    assert.equal(await callsOf(h, before.customer), expected)
    assert.equal(await callsOf(h, after.customer), expected)
  })

  test("a late file after the drop allocates the dropped number's month again with its features", async ({ h }) => {
    for (const firstBeforeDrop of [true, false]) {
      const t = await setUp(h)
      if (firstBeforeDrop) await upload(h, january(t.digits))
      await dropNumber(h, t.number)
      if (!firstBeforeDrop) await upload(h, january(t.digits))
      await upload(h, [row(t.digits, '2026-01-05', 60)])
      assert.equal(await callsOf(h, t.customer), [
        ['2026-01-05', 0.02, 60, 60],
        ['2026-01-10', 0.02, 240, 240],
        // The number's feature is used up: the customer's gives the 11th's call in full.
        ['2026-01-11', 0.02, 120, 120],
        ['2026-01-12', 0.22, 120, 0],
        ['2026-01-25', 0.12, 60, 0],
      ], `first file ${firstBeforeDrop ? 'before' : 'after'} the drop`)
    }
  })

  test('a discarded review run allocates a dropped number’s month again with its features (16.1)', async ({ h }) => {
    const t = await setUp(h)
    await upload(h, january(t.digits))
    await dropNumber(h, t.number)
    const run = await h.request('POST', '/billingRuns', { name: 'review dropped', cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested', review: true })
    assert.is(run.status, 201, JSON.stringify(run.body))
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    assert.is((await h.request('GET', `/billingRuns/${run.body.id}`)).body.status, 'Review')
    assert.is((await h.request('PATCH', `/billingRuns/${run.body.id}`, { status: 'Discarded' })).status, 200)
    assert.equal(await callsOf(h, t.customer), expected)
  })

  test("a feature's plans cover only the calls made while it is active: from its startDate, through its endDate or its bill-to date (11, 17.7)", async ({ h }) => {
    const customer = (await h.request('POST', '/customers', { defaultMobileTariff: 'UK Mobile' })).body.id as string
    const digits = `01632${String(980000 + phone++).padStart(6, '0')}`
    const number = (await h.request('POST', `/customers/${customer}/numbers`, { number: digits })).body.id as string
    const feature = async (body: object) => {
      const f = await h.request('POST', `/numbers/${number}/features`, { featureType: 'Line Rental', discountPlan1: 'Five Mobile', ...body })
      assert.is(f.status, 201, JSON.stringify(f.body))
      return f.body.id as string
    }
    // Starts mid-January: the month's whole 300 s, for calls from the 11th (as a drop's last day ends them).
    await feature({ startDate: '2026-01-11' })
    // Ended on the 3rd and never dropped.
    await feature({ startDate: '2025-12-01', endDate: '2026-01-03' })
    // Ends on the 4th, dropped later: its end date comes first.
    const dropped = await feature({ startDate: '2025-12-01', endDate: '2026-01-04' })
    await act(h, `/features/${dropped}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-25' })
    // Starts in March: nothing in January or February.
    await feature({ startDate: '2026-03-01' })
    // The later calls first, then a late file with earlier ones: the month is allocated again.
    await upload(h, [row(digits, '2026-01-07', 120), row(digits, '2026-01-20', 120), row(digits, '2026-02-16', 60)])
    await upload(h, [row(digits, '2026-01-03', 60), row(digits, '2026-01-04', 60), row(digits, '2026-01-05', 60), row(digits, '2026-01-11', 240)])
    assert.equal(await callsOf(h, customer), [
      // The feature ended on the 3rd, then the one ending on the 4th.
      ['2026-01-03', 0.02, 60, 60],
      ['2026-01-04', 0.02, 60, 60],
      // Nothing active on the 5th or the 7th: charged in full, no plan covers them.
      ['2026-01-05', 0.12, 60, null],
      ['2026-01-07', 0.22, 120, null],
      // The feature started on the 11th: 240 of its 300 s, then 60 s left for the 20th.
      ['2026-01-11', 0.02, 240, 240],
      ['2026-01-20', 0.12, 120, 60],
      // February: the same feature's 300 s again.
      ['2026-02-16', 0.02, 60, 60],
    ])
  })

  test.run()
}
