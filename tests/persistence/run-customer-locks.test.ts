import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import type { Store } from '../../core/ports/store.js'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A billing run's step locks its customers before it reads and plans their pages, as a charge
 * change or a lifecycle action locks its customer (bill-partition.ts): a change committed while
 * the run goes on is billed by it, never planned over from a page read before it. The changes
 * here are made between two steps, after the first could have read the second's first page (on
 * Postgres and a SQLite file it did, on another connection). Written once, run against every database.
 */
const CUSTOMERS = 10

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`billing run steps lock their customers before reading them [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-10-20T10:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('a charge change and a drop committed between two steps are billed by the second', async ({ h }) => {
    const customers: { customer: string; feature: string }[] = []
    for (let i = 0; i < CUSTOMERS; i++) {
      const customer = await newCustomer(h)
      const feature = await newFeature(h, customer, { featureType: 'Support', startDate: '2026-10-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
      customers.push({ customer, feature })
    }
    await bill(h, '2026-10-31')
    const november = await h.request('POST', '/billingRuns', { name: 'November', cutoffDate: '2026-11-30', invoiceDate: '2026-11-30', status: 'Requested' })
    assert.is(november.status, 201, JSON.stringify(november.body))
    // Two customers a page (one feature each, batchFeatures 20), three pages a step: the first step
    // bills the first six, the second the rest.
    const [changed, dropped] = [customers[6], customers[7]]
    const novemberOf = async (customer: string) => ((await h.request('GET', `/customers/${customer}/invoices`)).body as any[]).filter((i) => i.billingRunID === november.body.id)
    const store = h.platform.context.store as { pipelinedTransaction: Store['pipelinedTransaction'] }
    const original = store.pipelinedTransaction.bind(store)
    let steps = 0
    store.pipelinedTransaction = async (work) => {
      if (++steps === 2) {
        assert.is((await novemberOf(customers[5].customer)).length, 1, 'the first step billed the sixth customer')
        assert.is((await novemberOf(changed.customer)).length, 0, 'and not the seventh')
        const patched = await h.request('PATCH', `/features/${changed.feature}`, { serviceCharge: '200.00' })
        assert.is(patched.status, 200, JSON.stringify(patched.body))
        assert.is(patched.body.dueDate, '2026-11-01', 'the change is from November')
        await act(h, `/features/${dropped.feature}`, 'drop', { status: 'Dropped', dateDrop: '2026-10-31', dateBillTo: '2026-10-31' })
      }
      return original(work)
    }
    try {
      assert.is((await runNextBillingRun(h.platform.context, { batchSize: 2, batchFeatures: 20 }))?.status, 'Complete')
    } finally {
      store.pipelinedTransaction = original
    }
    assert.ok(steps >= 2, `the run took ${steps} steps`)
    assert.equal(
      (await novemberOf(changed.customer)).map((i) => i.netAmount),
      [200],
      'billed at the changed charge',
    )
    const charged = ((await h.request('GET', `/features/${dropped.feature}/transactions`)).body as any[]).filter((t) => t.dateFrom >= '2026-11-01')
    assert.equal(
      charged.map((t) => [t.transactionType, t.amount]),
      [],
      'nothing charged past its bill-to date',
    )
    assert.equal(
      (await novemberOf(customers[8].customer)).map((i) => i.netAmount),
      [100],
      'the others as they were',
    )
    const again = await bill(h, '2026-11-30')
    assert.is(again.invoiceCount, 0, `a re-run of the cutoff has nothing to write: ${JSON.stringify(again)}`)
  })

  test.run()
}
