import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { act, bill, newCustomer, newFeature, onBillingSteps } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const invoicesOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]
const allInvoices = async (h: Harness) => (await h.request('GET', '/invoices/?limit=1000')).body as any[]
const transactionsOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/transactions?limit=1000`)).body as any[]
const runOf = async (h: Harness, id: string) => (await h.request('GET', `/billingRuns/${id}`)).body
const patchRun = (h: Harness, id: string, status: string) => h.request('PATCH', `/billingRuns/${id}`, { status })
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`)

/** Runs the billing job as the scheduler does (drafting, or finalising an approved run). */
async function poll(h: Harness) {
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('billing-poll')
  await scheduler.stop()
}

async function requestReview(h: Harness, cutoffDate: string): Promise<string> {
  const r = await h.request('POST', '/billingRuns', { name: `review ${cutoffDate}`, cutoffDate, invoiceDate: cutoffDate, status: 'Requested', review: true })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return String(r.body.id)
}

/** Runs the run in progress, a customer a batch, with its second step failing as `fail` makes it; the run ends Failed. */
async function failSecondStep(h: Harness, fail: (trx: any) => void) {
  let steps = 0
  const restore = onBillingSteps(h.platform.context.store, (trx) => {
    if (++steps === 2) fail(trx)
  })
  const error = await runNextBillingRun(h.platform.context, { batchSize: 1 })
    .then(() => null, (e: Error) => e)
    .finally(restore)
  assert.match(error?.message ?? '', /injected/)
}

/**
 * `n` customers with a line and a January call each, drafted by a review run for January,
 * approved, and the approval failing at its second step: a step finalises twelve customers (a
 * customer a batch: four an approval's batch, three batches a step), so twelve are numbered.
 */
async function failedApproval(h: Harness, n: number) {
  const t = await h.request('POST', '/tariffs', { name: 'T', baseRoundSeconds: 60 })
  assert.is((await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '1.00' })).status, 201)
  const customers: string[] = []
  const calls: string[] = []
  for (let i = 0; i < n; i++) {
    const c = await newCustomer(h, { accountNumber: `FA-${i}`, defaultNationalTariff: 'T' })
    const number = `016329500${String(i).padStart(2, '0')}`
    const id = (await h.request('POST', `/customers/${c}/numbers`, { number })).body.id
    assert.is((await h.request('POST', `/numbers/${id}/features`, { featureType: 'Line Rental', startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })).status, 201)
    calls.push(`${number},01632960999,2026-01-10T10:00:00Z,60,NAT,national,Gamma`)
    customers.push(c)
  }
  const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...calls, ''].join('\n')
  assert.is((await h.request('POST', '/usageFiles', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })).status, 201)
  const runID = await requestReview(h, '2026-01-31')
  assert.is((await runNextBillingRun(h.platform.context, { batchSize: 1 }))?.status, 'Review')
  assert.is((await patchRun(h, runID, 'Approved')).status, 200)
  await failSecondStep(h, (trx) => {
    trx.invoiceNumbers.take = async () => {
      throw new Error('injected: the database went away')
    }
  })
  const run = await runOf(h, runID)
  assert.is(run.status, 'Failed')
  const invoices = await allInvoices(h)
  assert.equal([invoices.filter((i) => i.invoiceNumber).length, invoices.filter((i) => i.status === 'Draft').length], [12, n - 12], 'twelve numbered, the rest still drafts')
  return { runID, customers }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`review runs that fail: their drafts are released [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('a review run that fails while drafting holds its drafts until discarded (no other run meanwhile, no approval); discarded, a corrected run bills every customer once', async ({ h }) => {
    const customers: string[] = []
    for (let i = 0; i < 6; i++) {
      const c = await newCustomer(h, { accountNumber: `FD-${i}` })
      await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '28.00', serviceChargeInterval: 'Calendar Monthly' })
      customers.push(c)
    }
    // In final bill when drafted, through a date after the cutoff: its draft was its final invoice.
    await act(h, `/customers/${customers[0]}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-02-14' })
    const runID = await requestReview(h, '2026-01-31')
    await failSecondStep(h, (trx) => {
      trx.ledger.raiseInvoices = async () => {
        throw new Error('injected: the invoices were refused')
      }
    })
    const failed = await runOf(h, runID)
    assert.is(failed.status, 'Failed')
    const drafts = await allInvoices(h)
    assert.equal(drafts.map((i) => [i.customerID, i.status]), customers.slice(0, 3).map((c) => [c, 'Draft']), 'the first step drafted three')
    assert.is(drafts[0].netAmount, 28 + 14, 'the final bill drafted through its date')

    const other = await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })
    assert.is(other.status, 409, 'its drafts hold their charges, as in Review')
    assert.match(JSON.stringify(other.body), new RegExp(`${runID}.*draft`))
    const approved = await patchRun(h, runID, 'Approved')
    assert.is(approved.status, 400, 'a run drafted in part is not approved')
    assert.match(JSON.stringify(approved.body), /drafting/)
    assert.is((await patchRun(h, runID, 'Complete')).status, 400)

    const discarded = await patchRun(h, runID, 'Discarded')
    assert.is(discarded.status, 200, JSON.stringify(discarded.body))
    assert.equal([discarded.body.status, discarded.body.invoiceCount, discarded.body.invoiceAmount], ['Discarded', 0, 0])
    assert.equal(await allInvoices(h), [])
    assert.equal((await transactionsOf(h, customers[1])).map((t) => [t.amount, t.approved, t.invoiceID]), [[28, false, null]], 'its charges unapproved again')
    assert.is((await patchRun(h, runID, 'Approved')).status, 400, 'decided once')

    const corrected = await bill(h, '2026-01-31')
    const invoices = await allInvoices(h)
    assert.equal(invoices.map((i) => [i.customerID, i.billingRunID, i.invoiceNumber, i.netAmount]), customers.map((c, i) => [c, corrected.id, numbered(6)[i], i === 0 ? 42 : 28]))
    h.clock.set('2026-03-01T09:00:00Z')
    await bill(h, '2026-02-28')
    assert.is((await invoicesOf(h, customers[0])).length, 1, 'the final invoice came from the corrected run, and was its last')
    assert.equal((await invoicesOf(h, customers[1])).map((i) => i.netAmount), [28, 28])
  })

  test('a review run that fails while approved can be approved again: the drafts left are finalised, numbered after those issued without a gap', async ({ h }) => {
    const { runID, customers } = await failedApproval(h, 14)
    assert.is((await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', status: 'Requested' })).status, 409, 'no other run while its drafts wait')
    const again = await patchRun(h, runID, 'Approved')
    assert.is(again.status, 200, JSON.stringify(again.body))
    assert.equal([again.body.status, again.body.failureReason], ['Approved', null])
    await poll(h)
    const run = await runOf(h, runID)
    assert.equal([run.status, run.invoiceCount, run.invoiceAmount], ['Complete', 14, 14 * 11])
    const invoices = await allInvoices(h)
    assert.equal(invoices.map((i) => i.invoiceNumber).sort(), numbered(14))
    assert.ok(invoices.every((i) => i.status !== 'Draft' && i.netAmount === 11 && i.billingRunID === runID))
    for (const c of customers) assert.ok((await transactionsOf(h, c)).every((t) => t.approved), 'every row approved')
    assert.is((await h.request('POST', '/billingRuns', { cutoffDate: '2026-02-28', status: 'Requested' })).status, 201, 'runs may follow')
  })

  test('a review run that fails while approved can be discarded for its drafts left: those numbered stay with their rows; a corrected run bills the rest once', async ({ h }) => {
    const { runID, customers } = await failedApproval(h, 14)
    const discarded = await patchRun(h, runID, 'Discarded')
    assert.is(discarded.status, 200, JSON.stringify(discarded.body))
    assert.equal([discarded.body.status, discarded.body.invoiceCount, discarded.body.invoiceAmount], ['Discarded', 12, 12 * 11], 'its totals are the invoices it issued')
    const issued = await allInvoices(h)
    assert.equal(issued.map((i) => i.invoiceNumber), numbered(12))
    for (const invoice of issued) {
      const rows = (await transactionsOf(h, invoice.customerID)).filter((t) => t.invoiceID === invoice.id)
      assert.equal(rows.map((t) => [t.transactionType, t.amount, t.approved]).sort(), [['Call Charges', 1, true], ['Recurring Charge', 10, true]], 'its call row stays on its invoice')
    }
    const left = customers.filter((c) => !issued.some((i) => i.customerID === c))
    assert.is(left.length, 2)
    for (const c of left) assert.equal((await transactionsOf(h, c)).map((t) => [t.transactionType, t.approved, t.invoiceID]), [['Recurring Charge', false, null]], 'its calls unbilled again')
    const corrected = await bill(h, '2026-01-31')
    assert.equal([corrected.invoiceCount, corrected.invoiceAmount], [2, 22])
    const invoices = await allInvoices(h)
    assert.equal(invoices.map((i) => i.invoiceNumber), numbered(14))
    for (const c of customers) assert.equal((await invoicesOf(h, c)).map((i) => i.netAmount), [11], 'each customer billed once')
  })

  test('a customer put into final bill while the run is in Review is billed as drafted; the next run raises its final invoice, and none after', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'FB-1' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '28.00', serviceChargeInterval: 'Calendar Monthly' })
    const runID = await requestReview(h, '2026-01-31')
    await poll(h)
    assert.is((await runOf(h, runID)).status, 'Review')
    await act(h, `/customers/${c}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-02-14' })
    assert.is((await patchRun(h, runID, 'Approved')).status, 200)
    await poll(h)
    assert.equal((await invoicesOf(h, c)).map((i) => [i.invoiceNumber, i.netAmount]), [['INV-000001', 28]], 'approved as drafted')
    h.clock.set('2026-03-01T09:00:00Z')
    const feb = await bill(h, '2026-02-28')
    assert.is(feb.invoiceCount, 1)
    assert.equal((await invoicesOf(h, c)).map((i) => [i.invoiceNumber, i.netAmount]), [['INV-000001', 28], ['INV-000002', 14]], 'its final invoice through dateFinalBill')
    assert.ok((await transactionsOf(h, c)).every((t) => t.approved))
    h.clock.set('2026-04-01T09:00:00Z')
    assert.is((await bill(h, '2026-03-31')).invoiceCount, 0, 'after its final invoice no run invoices it again')
  })

  test('a customer in final bill when drafted: a discarded draft is not its final invoice (the corrected run drafts it again); the approved one is, and no run invoices it after', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'FB-2' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '28.00', serviceChargeInterval: 'Calendar Monthly' })
    await act(h, `/customers/${c}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-02-14' })
    const first = await requestReview(h, '2026-01-31')
    await poll(h)
    assert.is((await patchRun(h, first, 'Discarded')).status, 200)
    const corrected = await requestReview(h, '2026-01-31')
    await poll(h)
    assert.equal((await allInvoices(h)).map((i) => [i.billingRunID, i.status, i.netAmount]), [[corrected, 'Draft', 42]], 'drafted again, through its final bill')
    assert.is((await patchRun(h, corrected, 'Approved')).status, 200)
    await poll(h)
    h.clock.set('2026-03-01T09:00:00Z')
    assert.is((await bill(h, '2026-02-28')).invoiceCount, 0, 'no run invoices a final bill again')
    assert.equal((await invoicesOf(h, c)).map((i) => [i.invoiceNumber, i.netAmount]), [['INV-000001', 42]])
  })

  test.run()
}
