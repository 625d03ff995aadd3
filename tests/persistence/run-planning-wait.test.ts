import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A worker that finds another splitting the billing run into partitions (its `Planning`
 * partition held by a live lease) waits for the partitions and bills them, instead of leaving
 * until its next poll with the run to the worker that split it. Where a run is one partition
 * (SQLite) there is nothing to wait for: it leaves at once.
 */

const CUSTOMERS = 3

async function runningRunHeldByAnother(h: Harness) {
  for (let i = 0; i < CUSTOMERS; i++) {
    const c = await newCustomer(h)
    await newFeature(h, c, { startDate: '2030-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
  }
  const r = await h.request('POST', '/billingRuns', { cutoffDate: '2030-01-31', invoiceDate: '2030-01-31', status: 'Requested' })
  assert.is(r.status, 201, JSON.stringify(r.body))
  const runID = String(r.body.id)
  const { store, clock } = h.platform.context
  // What another worker's start of the run leaves: the run Running, its Planning partition claimed.
  await store.repository('billingRuns').update(runID, { status: 'Running', commencedDate: clock.now() })
  await store.runPartitions.create(runID, [{ status: 'Planning', afterCustomerID: '0', lastCustomerID: null, customersTotal: 0 }])
  const planning = await store.runPartitions.claim(runID, 'another worker', 60_000)
  assert.is(planning?.status, 'Planning')
  return planning!
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`a worker and a run another is splitting [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2030-02-01T00:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('waits for the partitions and bills them where runs are shared; leaves at once where not', async ({ h }) => {
    const planning = await runningRunHeldByAnother(h)
    const { runPartitions } = h.platform.context.store
    let settled = false
    const execution = runNextBillingRun(h.platform.context, { holder: 'this worker' }).finally(() => (settled = true))
    if (!runPartitions.parallel) {
      // Awaited, not timed: a slow machine must not fail this.
      assert.is(await execution, null)
      assert.ok(settled, 'one partition a run: nothing to wait for')
      return
    }
    // Waiting never ends by itself here (the other worker's lease is a minute), so any pause shows it.
    await new Promise((resolve) => setTimeout(resolve, 600))
    assert.not.ok(settled, 'still waiting while the other worker splits the run')
    // The other worker commits its split: two partitions, in one transaction as planRun writes
    // them (split alone deletes the Planning partition before it inserts the two: a worker that
    // looked between the statements found no partition and left the run Running, once under load).
    const ids = (await h.platform.context.store.repository('customers').list({ where: [], limit: 10 })).map((c) => c.id)
    const split = await h.platform.context.store.transaction((store) => store.runPartitions.split(planning.id, 'another worker', [
      { afterCustomerID: '0', lastCustomerID: ids[0], customersTotal: 1 },
      { afterCustomerID: ids[0], lastCustomerID: null, customersTotal: CUSTOMERS - 1 },
    ]))
    assert.ok(split)
    const outcome = await execution
    assert.is(outcome?.status, 'Complete')
    assert.is(outcome?.customers, CUSTOMERS, 'this worker billed both partitions')
    assert.is(outcome?.invoices, CUSTOMERS)
  })

  test.run()
}
