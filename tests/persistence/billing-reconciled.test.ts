import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import type { Money } from '../../core/money/money.js'
import { act, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A billing run skips a feature whose reconciled mark matches its inputs (ledger_reconciled,
 * core/billing/reconciled-mark.ts). The oracle: after any run, forgetting every mark and running
 * the same cutoff again plans every feature from scratch, and must find nothing to write.
 */

async function run(h: Harness, cutoffDate: string) {
  const r = await h.request('POST', '/billingRuns', { cutoffDate, invoiceDate: cutoffDate, status: 'Requested' })
  assert.is(r.status, 201, JSON.stringify(r.body))
  let last = null
  for (let outcome; (outcome = await runNextBillingRun(h.platform.context)); ) last = outcome
  return last!
}

/** Runs `cutoff` again with every mark forgotten: a full re-plan, which must write nothing. */
async function assertReconciled(h: Harness, cutoff: string, context: string) {
  await h.platform.database.db.deleteFrom('ledger_reconciled').execute()
  const again = await run(h, cutoff)
  assert.is(again.ledgerWrites, 0, `a full re-plan at ${cutoff} still wrote after ${context}`)
}

/** Reads of features' ledger rows (`Ledger.engineRows`, by `DatabaseDialect.rowsByIds`: `in` a list, or `=` each ID). */
const ledgerReads = (h: Harness) => h.queries.filter((q) => /from "transactions" where "featureID" (in|=) /.test(q)).length

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; tariff: string }>(`billing runs skip reconciled features [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T00:00:00Z' })
    const t = await ctx.h.request('POST', '/fixedFeeTariffs', { name: 'Reconciled' })
    ctx.tariff = t.body.id
    await ctx.h.request('POST', `/fixedFeeTariffs/${ctx.tariff}/fixedFeeTariffDetails`, { serviceCharge: 12 })
  })
  test.after(async (ctx) => ctx.h.close())

  test('a second run with the same cutoff reads no ledger rows and writes nothing', async ({ h }) => {
    const c = await newCustomer(h)
    await newFeature(h, c, { startDate: '2030-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    const first = await run(h, '2030-01-31')
    assert.ok(first.ledgerWrites > 0)
    h.queries.length = 0
    const second = await run(h, '2030-01-31')
    assert.is(second.ledgerWrites, 0)
    assert.is(ledgerReads(h), 0, 'no feature was planned again')
    const later = await run(h, '2030-02-28')
    assert.ok(later.ledgerWrites > 0, 'a later cutoff charges the new period')
    assert.ok(ledgerReads(h) > 0, 'the later cutoff planned the feature, reading its ledger rows')
  })

  test('a second run with the same cutoff measures no credit alerts and reads no number minimums', async ({ h }) => {
    const c = await newCustomer(h, { creditLimit: 5 })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 777 0101', creditLimit: 3, lowInvoiceActionValue: 2 })).body.id
    const f = await h.request('POST', `/numbers/${n}/features`, { startDate: '2030-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    assert.is(f.status, 201, JSON.stringify(f.body))
    h.queries.length = 0
    const first = await run(h, '2030-01-31')
    assert.ok(first.invoices > 0)
    // The same patterns seen on the first run, so their absence below is not a query renamed.
    const minimumReads = () => h.queries.filter((q) => /select "id", "customerID", "lowInvoiceActionValue", "VATRateCalls" from "numbers"/.test(q)).length
    const alertReads = () => h.queries.filter((q) => /select "id", "creditLimit", "creditLimitCalls"/.test(q)).length
    assert.ok(minimumReads() > 0 && alertReads() > 0, 'the first run reads the minimums and measures the alerts')
    const alerts = (await h.request('GET', `/customers/${c}`)).body.creditAlerts
    assert.equal(alerts, ['creditLimit'], 'the invoice took the balance over the limit')
    h.queries.length = 0
    const second = await run(h, '2030-01-31')
    assert.is(second.ledgerWrites + second.invoices, 0)
    assert.is(minimumReads(), 0, 'nothing to invoice: no minimums read')
    assert.is(alertReads(), 0, 'nothing written: no alerts measured')
    assert.equal((await h.request('GET', `/customers/${c}`)).body.creditAlerts, alerts)
  })

  test('rows written to a feature outside a run drop its mark: the next run plans it again', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2030-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    await run(h, '2030-01-31')
    // a stray unapproved charge for a period already charged, with the feature's inputs unchanged
    const stray = { customerID: c, featureID: f, transactionType: 'Recurring Charge', transactionDate: '2030-01-01' as DateOnly, dateFrom: '2030-01-01' as DateOnly, dateTo: '2030-01-31' as DateOnly, quantity: 1, amount: 100_000n as Money, approved: false, kind: 'recurring', series: 0, revision: 1, rate: 100_000n as Money }
    await h.platform.context.store.ledger.write({ inserts: [stray], updates: [], deletes: [], features: [f] })
    const again = await run(h, '2030-01-31')
    assert.is(again.ledgerWrites, 1, 'the stray row is deleted')
    await assertReconciled(h, '2030-01-31', 'a stray row')
  })

  test("deleting a feature, or a number or service with its features, leaves no mark of theirs", async ({ h }) => {
    const c = await newCustomer(h)
    const charged = { startDate: '2030-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' }
    const own = await newFeature(h, c, charged)
    const kept = await newFeature(h, c, charged)
    const number = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 777 0202' })).body.id
    const service = (await h.request('POST', `/customers/${c}/services`, {})).body.id
    const onNumber = (await h.request('POST', `/numbers/${number}/features`, charged)).body.id
    const onService = (await h.request('POST', `/services/${service}/features`, charged)).body.id
    await run(h, '2030-01-31')
    const { db, dialect } = h.platform.database
    const marked = async () => {
      const ids = [own, kept, onNumber, onService]
      const rows = await db.selectFrom('ledger_reconciled').select('featureID').where('featureID', 'in', ids.map((f) => dialect.encodeId(f))).execute()
      return ids.filter((f) => rows.some((r) => String(r.featureID) === f))
    }
    assert.equal(await marked(), [own, kept, onNumber, onService], 'the run marked every billed feature')
    assert.is((await h.request('DELETE', `/features/${own}`)).status, 200)
    assert.equal(await marked(), [kept, onNumber, onService], 'DELETE /features')
    assert.is((await h.request('DELETE', `/numbers/${number}`)).status, 200)
    assert.is((await h.request('DELETE', `/services/${service}`)).status, 200)
    assert.equal(await marked(), [kept], "a number's and a service's features go with them")
  })

  // Each change, made after a run, must be billed by the next run with the same cutoff exactly
  // as a full re-plan bills it: the change invalidates the feature's mark, or its inputs differ.
  const changes: [string, (h: Harness, ids: { c: string; f: string; tariffed: string; tariff: string }) => Promise<unknown>][] = [
    ['a PATCH of the service charge', (h, { f }) => h.request('PATCH', `/features/${f}`, { serviceCharge: '11.00' })],
    ['a PATCH of the feature count', (h, { f }) => h.request('PATCH', `/features/${f}`, { featureCount: 3 })],
    ['a PATCH of the interval', (h, { f }) => h.request('PATCH', `/features/${f}`, { serviceChargeInterval: 'Calendar Monthly' })],
    ['a PATCH of the start date', (h, { f }) => h.request('PATCH', `/features/${f}`, { startDate: '2030-02-10' })],
    ['a PATCH of the end date', (h, { f }) => h.request('PATCH', `/features/${f}`, { endDate: '2030-02-14' })],
    ['a connection charge added', (h, { f }) => h.request('PATCH', `/features/${f}`, { connectionCharge: '25.00' })],
    ['changeRecurringCharge replace', (h, { f }) => act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '40.00', dateFrom: '2030-02-15' })],
    ['changeRecurringCharge delta', (h, { f }) => act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '5.00', dateFrom: '2030-01-20', chargeChangeMode: 'delta' })],
    ['changeRecurringCharge add', (h, { f }) => act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '20.00', dateFrom: '2030-02-01', chargeChangeMode: 'add' })],
    ['a suspension', (h, { f }) => act(h, `/features/${f}`, 'suspend', { status: 'Suspended', dateSuspend: '2030-02-20' })],
    ['the customer made non-billable', (h, { c }) => act(h, `/customers/${c}`, 'makeNonBillable', { status: 'Non-Billable', dateMakeNonBillable: '2030-02-10' })],
    ['a drop', (h, { f }) => act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2030-02-05' })],
    ['a final bill', (h, { c }) => act(h, `/customers/${c}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2030-04-10' })],
    ['a tariff price change', (h, { tariff }) => h.request('POST', `/fixedFeeTariffs/${tariff}/fixedFeeTariffDetails`, { serviceCharge: 15, startDate: '2030-02-01' })],
    ['another tariff for the feature', (h, { tariffed }) => h.request('PATCH', `/features/${tariffed}`, { fixedFeeTariff: null, serviceCharge: '3.00' })],
  ]
  for (const [name, change] of changes) {
    test(`a run after ${name} bills as a full re-plan does`, async ({ h, tariff }) => {
      const c = await newCustomer(h)
      const f = await newFeature(h, c, { startDate: '2030-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
      const tariffed = await newFeature(h, c, { startDate: '2030-01-01', serviceChargeInterval: 'Monthly', fixedFeeTariff: 'Reconciled' })
      await run(h, '2030-02-28')
      const r = (await change(h, { c, f, tariffed, tariff })) as { status?: number; body?: unknown } | undefined
      if (r && typeof r.status === 'number') assert.ok(r.status < 300, `${name}: ${JSON.stringify(r.body)}`)
      await run(h, '2030-02-28')
      await assertReconciled(h, '2030-02-28', name)
      await run(h, '2030-05-31')
      await assertReconciled(h, '2030-05-31', `${name}, later`)
    })
  }

  test('property: after any history of runs and changes, a full re-plan finds nothing left to write', async ({ h }) => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('run' as const), gap: fc.integer({ min: 0, max: 45 }) }),
      fc.record({ kind: fc.constant('charge' as const), pence: fc.integer({ min: 0, max: 9_999 }), count: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ kind: fc.constantFrom('replace' as const, 'delta' as const, 'add' as const), pence: fc.integer({ min: 1, max: 9_999 }), back: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ kind: fc.constantFrom('suspend' as const, 'unsuspend' as const, 'drop' as const, 'reinstate' as const, 'manual' as const) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 60 }), fc.array(step, { minLength: 1, maxLength: 7 }), async (offset, steps) => {
        const start = addDays('2031-01-01' as DateOnly, offset)
        const c = await newCustomer(h)
        const f = await newFeature(h, c, { startDate: start, serviceCharge: '19.99', serviceChargeInterval: 'Monthly' })
        await newFeature(h, c, { startDate: start, serviceCharge: '7.50', serviceChargeInterval: 'Calendar Quarterly' })
        let day = start
        let lastRun: DateOnly | null = null
        for (const s of steps) {
          if (s.kind === 'run') {
            day = addDays(day, s.gap)
            await run(h, day)
            lastRun = day
            await assertReconciled(h, day, JSON.stringify(steps))
          } else if (s.kind === 'charge') {
            await h.request('PATCH', `/features/${f}`, { serviceCharge: (s.pence / 100).toFixed(2), featureCount: s.count })
          } else if (s.kind === 'replace' || s.kind === 'delta' || s.kind === 'add') {
            // refusals (an add before anything was charged, a dropped feature) are fine: nothing changes then
            await h.request('POST', `/features/${f}?action=changeRecurringCharge`, { serviceCharge: (s.pence / 100).toFixed(2), dateFrom: addDays(day, -s.back), chargeChangeMode: s.kind })
          } else if (s.kind === 'manual') {
            await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Credit Note', amount: '1.00', featureID: f })
          } else {
            const bodies = {
              suspend: { status: 'Suspended', dateSuspend: day },
              unsuspend: { status: 'Active', dateUnsuspend: day },
              drop: { status: 'Dropped', dateDrop: day },
              reinstate: { status: 'Active', dateReinstate: day },
            }
            await h.request('POST', `/features/${f}?action=${s.kind}`, bodies[s.kind])
          }
        }
        if (lastRun) {
          await run(h, lastRun)
          await assertReconciled(h, lastRun, `same cutoff again after ${JSON.stringify(steps)}`)
        }
      }),
      { numRuns: target === 'postgres' ? 8 : 20 },
    )
  })

  test.run()
}
