import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { addDays, daysBetween, daysInMonth, type DateOnly } from '../../core/dates/date-only.js'
import { act, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/** What a Calendar Monthly feature owes through `cutoff`: every month starting by then, the first pro-rated. */
function owed(start: DateOnly, pence: number, cutoff: DateOnly): number {
  let total = 0
  let [y, m] = start.split('-').map(Number)
  let first = true
  for (;;) {
    const monthStart = `${y}-${String(m).padStart(2, '0')}-01` as DateOnly
    if (monthStart > cutoff) break
    const days = daysInMonth(y, m)
    const from = first ? start : monthStart
    if (from <= cutoff) {
      const covered = days - (Number(from.slice(8)) - 1)
      // half-up to whole pence of pence × covered / days
      total += Math.floor((2 * pence * covered + days) / (2 * days))
    }
    first = false
    m += 1
    if (m === 13) {
      m = 1
      y += 1
    }
  }
  return total
}

const sumPence = (rows: [string, string, string, number][]) => rows.reduce((s, r) => s + Math.round(r[3] * 100), 0)

async function requestRun(h: Harness, cutoffDate: string) {
  const r = await h.request('POST', '/billingRuns', { cutoffDate, invoiceDate: cutoffDate, status: 'Requested' })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body.id as string
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`billing properties on the database [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T00:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('for random histories of suspensions and runs, the ledger equals what the customer owes; re-runs change nothing', async ({ h }) => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 58 }),
        fc.integer({ min: 100, max: 99_999 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom('run', 'suspend', 'unsuspend')), { minLength: 1, maxLength: 6 }),
        async (startOffset, pence, steps) => {
          const start = addDays('2026-01-01' as DateOnly, startOffset)
          const c = await newCustomer(h)
          const f = await newFeature(h, c, { startDate: start, serviceCharge: (pence / 100).toFixed(2), serviceChargeInterval: 'Calendar Monthly' })
          let day = start
          let suspended = false
          for (const [gap, step] of steps) {
            day = addDays(day, gap)
            if (step === 'run') {
              await requestRun(h, day)
              while (await runNextBillingRun(h.platform.context)) {}
            } else if (step === 'suspend' && !suspended) {
              await act(h, `/features/${f}`, 'suspend', { status: 'Suspended', dateSuspend: day })
              suspended = true
            } else if (step === 'unsuspend' && suspended) {
              await act(h, `/features/${f}`, 'unsuspend', { status: 'Active', dateUnsuspend: day })
              suspended = false
            }
          }
          if (suspended) await act(h, `/features/${f}`, 'unsuspend', { status: 'Active', dateUnsuspend: day })
          const final = addDays(day, 1)
          await requestRun(h, final)
          while (await runNextBillingRun(h.platform.context)) {}
          const ledger = await ledgerOf(h, f)
          assert.is(sumPence(ledger), owed(start, pence, final), `start ${start}, ${pence}p, cutoff ${final}`)
          const periods = ledger.map((r) => r[1])
          assert.is(new Set(periods).size, periods.length, 'no period charged twice')
          await requestRun(h, final)
          while (await runNextBillingRun(h.platform.context)) {}
          assert.equal(await ledgerOf(h, f), ledger, 'a re-run changes nothing')
          void daysBetween
        },
      ),
      { numRuns: target === 'postgres' ? 10 : 15 },
    )
  })

  test('a run interrupted between transactions resumes without double charging', async ({ h }) => {
    const customers: string[] = []
    for (let i = 0; i < 7; i++) {
      const c = await newCustomer(h)
      customers.push(c)
      await newFeature(h, c, { startDate: '2027-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    }
    const id = await requestRun(h, '2027-01-31')
    const stop = new AbortController()
    let batches = 0
    const originalTransaction = h.platform.context.store.pipelinedTransaction.bind(h.platform.context.store)
    ;(h.platform.context.store as any).pipelinedTransaction = async (work: any) => {
      const result = await originalTransaction(work)
      if (++batches === 2) stop.abort() // "killed" after the second transaction (three batches each)
      return result
    }
    const first = await runNextBillingRun(h.platform.context, { batchSize: 1, signal: stop.signal })
    ;(h.platform.context.store as any).pipelinedTransaction = originalTransaction
    assert.is(first?.status, 'Interrupted')
    assert.is((await h.request('GET', `/billingRuns/${id}`)).body.status, 'Running')
    const resumed = await runNextBillingRun(h.platform.context, { batchSize: 1 })
    assert.is(resumed?.status, 'Complete')
    for (const c of customers) {
      const tx = (await h.request('GET', `/customers/${c}/transactions`)).body
      assert.is(tx.length, 1, `customer ${c}`)
      assert.is((await h.request('GET', `/customers/${c}/invoices`)).body.length, 1)
    }
  })

  test('simultaneous billing of one cutoff never doubles a charge (the natural key forbids it)', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2028-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    const { rebillFeatures } = await import('../../core/billing/rebill.js')
    const ctx = h.platform.context
    const store = ctx.store
    const customer = (await store.repository('customers').get(c))!
    const feature = (await store.repository('features').get(f))!
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => store.transaction((tx) => rebillFeatures(ctx, tx, [feature], customer, { cutoff: '2028-03-31' as DateOnly, chargeable: true }))),
    )
    assert.ok(results.some((r) => r.status === 'fulfilled'))
    const ledger = await ledgerOf(h, f)
    assert.equal(ledger.map((r) => r[1]), ['2028-01-01', '2028-02-01', '2028-03-01'], JSON.stringify(ledger))
  })

  test.run()
}
