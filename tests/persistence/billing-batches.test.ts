import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runNextBillingRun, type RunOptions } from '../../core/billing/run-billing.js'
import { newCustomer, newFeature, onBillingSteps } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A billing run's batches follow the features it plans, not customers: each takes as many
 * customers as had `batchFeatures` features to plan in the batch before (the first guesses ten
 * a customer), never more than `batchSize`, and at least one. Every customer is billed once
 * whatever the sizes.
 */

/** Runs the requested run with `options`, returning how many customers each batch read. */
async function pageSizes(h: Harness, options: RunOptions): Promise<{ sizes: number[]; customers: number | undefined }> {
  const store = h.platform.context.store
  const sizes: number[] = []
  // A step reads its pages beside its writes (`reads`, the transaction's own store where there is no other connection).
  const restore = onBillingSteps(store, (_, reads) => {
    const read = reads.runSource.customersAfter.bind(reads.runSource)
    reads.runSource.customersAfter = async (after, limit, last) => {
      const page = await read(after, limit, last)
      sizes.push(page.length)
      return page
    }
  })
  try {
    const outcome = await runNextBillingRun(h.platform.context, options)
    return { sizes, customers: outcome?.customers }
  } finally {
    restore()
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`billing runs size their batches by features [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T00:00:00Z' })
    for (let i = 0; i < 10; i++) {
      const c = await newCustomer(ctx.h)
      for (let k = 0; k < 3; k++) await newFeature(ctx.h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    }
  })
  test.after(async (ctx) => ctx.h.close())

  const request = async (h: Harness, cutoffDate: string) => {
    const r = await h.request('POST', '/billingRuns', { cutoffDate, invoiceDate: cutoffDate, status: 'Requested' })
    assert.is(r.status, 201, JSON.stringify(r.body))
  }

  test('customers of three features, six features a batch: one customer first, then two at a time', async ({ h }) => {
    await request(h, '2026-01-31')
    const { sizes, customers } = await pageSizes(h, { batchFeatures: 6 })
    assert.equal(sizes, [1, 2, 2, 2, 2, 1, 0])
    assert.is(customers, 10)
    const transactions = await h.platform.database.db.selectFrom('transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    assert.is(Number(transactions.n), 30, 'every feature charged once')
    await request(h, '2026-01-31')
    assert.equal((await pageSizes(h, { batchFeatures: 6 })).sizes, [1, 9, 0], 'a rerun plans nothing: whole pages')
  })

  test('batchSize caps a batch, and a customer with more features than a batch still gets one', async ({ h }) => {
    await request(h, '2026-02-28')
    assert.equal((await pageSizes(h, { batchSize: 4 })).sizes, [4, 4, 2, 0])
    await request(h, '2026-03-31')
    assert.equal((await pageSizes(h, { batchFeatures: 2 })).sizes, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0])
  })

  test('a stop asked for during a transaction ends it after the batch in hand, committed', async ({ h }) => {
    await request(h, '2026-04-30')
    const stop = new AbortController()
    const store = h.platform.context.store
    const restore = onBillingSteps(store, (trx) => {
      const bill = trx.ledger.raiseInvoices.bind(trx.ledger)
      trx.ledger.raiseInvoices = async (...args) => {
        const raised = await bill(...args)
        stop.abort() // during the first batch
        return raised
      }
    })
    const first = await runNextBillingRun(h.platform.context, { batchSize: 2, signal: stop.signal }).finally(restore)
    assert.is(first?.status, 'Interrupted')
    assert.is(first?.customers, 2, 'the batch in hand, and no other')
    const resumed = await runNextBillingRun(h.platform.context, { batchSize: 2 })
    assert.is(resumed?.status, 'Complete')
    assert.is(resumed?.customers, 8)
    const invoices = await h.platform.database.db.selectFrom('invoices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    assert.is(Number(invoices.n), 40, 'one invoice per customer and run, none twice')
  })

  test.run()
}
