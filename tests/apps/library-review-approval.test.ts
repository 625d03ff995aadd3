import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createBillingPlatform, FixedClock, type BillingPlatform } from '../../index.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * An approved review run finalises its drafts a few pages a transaction, reading the next page
 * while one is written (bill-partition.ts). Across a commit only the customers are read ahead: on
 * a SQLite file the drafts' other reads are the step's transaction's, which is over by then (they
 * once failed there with "Transaction is already committed", the drafts left part-approved).
 * Written once, run against every database.
 */
const CUSTOMERS = 25

for (const name of activeTargets()) {
  const test = suite<{ target: Target; billing: BillingPlatform }>(`apps: a review run approved in small batches [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.billing = await createBillingPlatform({ databaseUrl: ctx.target.databaseUrl, schema: ctx.target.schema, clock: new FixedClock('2026-02-01T10:00:00Z') })
  })
  test.after(async (ctx) => {
    await ctx.billing.close()
    await ctx.target.dispose()
  })

  test('finalises every draft over many steps', async ({ billing }) => {
    for (let i = 0; i < CUSTOMERS; i++) {
      const c = await billing.customers.create({ accountNumber: `R${i}` })
      await billing.features.create({ customerID: c.id }, { featureType: 'Support', startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    }
    const run = await billing.billingRuns.create({ name: 'January', cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested', review: true })
    // One customer a batch: the approval's batches are four, three a step, so it takes three steps.
    await billing.billingRuns.runNext({ batchSize: 1 })
    assert.is((await billing.billingRuns.get(run.id)).status, 'Review')
    await billing.billingRuns.update(run.id, { status: 'Approved' })
    await billing.billingRuns.runNext({ batchSize: 1 })
    assert.is((await billing.billingRuns.get(run.id)).status, 'Complete')
    const invoices = (await billing.invoices.list({ limit: 100 })).items
    assert.is(invoices.length, CUSTOMERS)
    assert.equal(
      invoices.filter((i) => i.status === 'Draft').map((i) => i.customerID),
      [],
      'no draft left',
    )
  })

  test.run()
}
