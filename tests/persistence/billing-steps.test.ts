import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runNextBillingRun, type RunOptions } from '../../core/billing/run-billing.js'
import { newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A billing step commits several batches, and allocates held credit and measures credit alerts
 * for all of them at once, after the last (bill-partition.ts). Run one customer a batch (so a
 * step holds three batches) and all in one batch, the accounts come out the same, and as
 * worked out by hand: a payment made before any invoice pays the run's invoice, and a customer
 * over its limit gets its alert.
 */

const CUTOFF = '2026-01-31'

/** Seven customers of one 100.00 feature: the odd ones paid 30.00 ahead, every third has a limit of 50.00. */
async function seed(h: Harness): Promise<string[]> {
  const ids: string[] = []
  for (let i = 1; i <= 7; i++) {
    const c = await newCustomer(h, { accountNumber: `STEP-${i}`, ...(i % 3 === 0 ? { creditLimit: 50 } : {}) })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    if (i % 2 === 1) {
      const paid = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: 30, transactionDate: '2026-01-10' })
      assert.is(paid.status, 201, JSON.stringify(paid.body))
    }
    ids.push(c)
  }
  return ids
}

/** Each customer's invoice (total, paid, outstanding, status), held credit and alerts after the run. */
async function accounts(h: Harness, options: RunOptions) {
  const ids = await seed(h)
  const run = await h.request('POST', '/billingRuns', { cutoffDate: CUTOFF, invoiceDate: CUTOFF, status: 'Requested' })
  assert.is(run.status, 201, JSON.stringify(run.body))
  const outcome = await runNextBillingRun(h.platform.context, options)
  assert.is(outcome?.status, 'Complete')
  const out = []
  for (const id of ids) {
    // Held credit is internal: not on the wire, read as stored.
    const customer = (await h.platform.context.store.repository('customers').get(id))!
    const held = (await h.platform.context.store.receivables.heldCredits([id])).get(id)
    const invoices = (await h.request('GET', `/customers/${id}/invoices?limit=10`)).body as any[]
    out.push({
      invoices: invoices.map((i) => [i.totalAmount, i.amountPaid, i.amountOutstanding, i.status]),
      heldCredit: String(held),
      creditAlerts: customer.creditAlerts ?? [],
    })
  }
  return out
}

for (const target of activeTargets()) {
  const test = suite(`billing steps settle their batches together [${target}]`)

  test('one customer a batch (three a step) and one batch for all: the same accounts, as worked out by hand', async () => {
    const steps = await openHarness(target, { now: '2026-01-31T12:00:00Z' })
    const whole = await openHarness(target, { now: '2026-01-31T12:00:00Z' })
    try {
      const batched = await accounts(steps, { batchSize: 1 })
      const single = await accounts(whole, { batchSize: 500 })
      assert.equal(batched, single)
      batched.forEach((a, n) => {
        const i = n + 1
        const paid = i % 2 === 1 ? 30 : 0
        assert.is(a.invoices.length, 1, `customer ${i}: one invoice`)
        // January's 100.00 (no VAT rate), less what was paid ahead.
        assert.equal(a.invoices[0], [100, paid, 100 - paid, 'Unpaid'], `customer ${i}: the held payment pays its invoice`)
        assert.is(a.heldCredit, '0', `customer ${i}: nothing held after`)
        // The balance is the invoice less the payment: over 50.00 either way.
        assert.equal(a.creditAlerts, i % 3 === 0 ? ['creditLimit'] : [], `customer ${i}: alerts`)
      })
    } finally {
      await steps.close()
      await whole.close()
    }
  })

  test.run()
}
