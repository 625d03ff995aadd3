import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readPrintFile } from '../../core/delivery/print-file.js'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { bill, newCustomer, newFeature, onBillingSteps } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const invoicesOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]
const transactionsOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/transactions?limit=1000`)).body as any[]
const customerOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}`)).body
const runOf = async (h: Harness, id: string) => (await h.request('GET', `/billingRuns/${id}`)).body
const eventsOf = async (h: Harness, type: string) => ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === type)
const deliveriesOf = async (h: Harness, invoiceID: string) => (await h.request('GET', `/invoices/${invoiceID}/deliveries`)).body as any[]

/** Runs the billing job as the scheduler does (drafting, or finalising an approved run). */
async function poll(h: Harness) {
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('billing-poll')
  await scheduler.stop()
}

/** Requests a review run and drafts it: it stops at Review. */
async function draft(h: Harness, cutoffDate: string) {
  const r = await h.request('POST', '/billingRuns', { name: `review ${cutoffDate}`, cutoffDate, invoiceDate: cutoffDate, status: 'Requested', review: true })
  assert.is(r.status, 201, JSON.stringify(r.body))
  await poll(h)
  const run = await runOf(h, r.body.id)
  assert.is(run.status, 'Review', JSON.stringify(run))
  return run
}

async function decide(h: Harness, runID: string, status: 'Approved' | 'Discarded') {
  const r = await h.request('PATCH', `/billingRuns/${runID}`, { status })
  assert.is(r.status, 200, JSON.stringify(r.body))
  assert.is(r.body.status, status)
  if (status === 'Approved') await poll(h)
  return runOf(h, runID)
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`review runs: drafts, approval and discard [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('drafts approved after their overdue date are announced invoice.overdue once, after invoice.raised', async ({ h }) => {
    const c = await newCustomer(h, { paymentTerms: 7 })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    const run = await draft(h, '2026-01-31')
    assert.equal(await eventsOf(h, 'invoice.overdue'), [], 'a draft is never overdue')
    h.clock.set('2026-02-20T09:00:00Z') // overdue since 2026-02-07
    await decide(h, run.id, 'Approved')
    const [invoice] = await invoicesOf(h, c)
    assert.is(invoice.status, 'Overdue')
    const feed = async () => ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type.startsWith('invoice.')).map((e) => [e.type, e.data.id, e.data.status])
    assert.equal(await feed(), [['invoice.raised', invoice.id, 'Overdue'], ['invoice.overdue', invoice.id, 'Overdue']])
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('invoice-overdue')
    h.clock.set('2026-02-21T09:00:00Z')
    await scheduler.runNow('invoice-overdue')
    await scheduler.stop()
    assert.equal(await feed(), [['invoice.raised', invoice.id, 'Overdue'], ['invoice.overdue', invoice.id, 'Overdue']], 'not announced again')
  })

  test('drafts approved after their overdue date that held credit pays on approval are announced invoice.paid, never invoice.overdue', async ({ h }) => {
    const [full, part] = [await newCustomer(h, { paymentTerms: 7 }), await newCustomer(h, { paymentTerms: 7 })]
    for (const c of [full, part]) await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    for (const [c, amount] of [[full, 500], [part, 30]] as const) {
      const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount, transactionDate: '2026-01-10' })
      assert.is(r.status, 201, JSON.stringify(r.body))
    }
    const run = await draft(h, '2026-01-31')
    h.clock.set('2026-02-20T09:00:00Z') // overdue since 2026-02-07
    await decide(h, run.id, 'Approved')
    const feed = async (c: string) => {
      const [invoice] = await invoicesOf(h, c)
      const events = ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type.startsWith('invoice.') && e.data.id === invoice.id)
      return events.map((e) => [e.type, e.data.status, e.data.amountOutstanding])
    }
    assert.equal(await feed(full), [['invoice.raised', 'Overdue', 100], ['invoice.paid', 'Paid', 0]], 'paid by held credit: never chased')
    assert.equal(await feed(part), [['invoice.raised', 'Overdue', 100], ['invoice.overdue', 'Overdue', 70]], 'announced as it reads after the allocation')
  })

  test('a review run drafts: no number, unapproved, unallocated, unsent, not overdue; approval finalises as a plain run; a later run bills what follows', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-1', email: 'r1@example.com', emailBillType: 'PDF', postBillType: 'PDF', paymentTerms: 1 })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    const paid = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: 30, transactionDate: '2026-01-10' })
    assert.is(paid.status, 201, JSON.stringify(paid.body))
    const run = await draft(h, '2026-01-31')
    assert.is(run.invoiceCount, 1)
    let [invoice] = await invoicesOf(h, c)
    assert.equal([invoice.status, invoice.invoiceNumber, invoice.amountPaid, invoice.totalAmount], ['Draft', null, 0, 100])
    assert.equal(await deliveriesOf(h, invoice.id), [], 'a draft is not sent')
    assert.equal(await readPrintFile(h.platform.context, run.id), [], 'nor posted: the print file leaves drafts out')
    assert.equal(await eventsOf(h, 'invoice.raised'), [], 'nor announced')
    const charges = (await transactionsOf(h, c)).filter((t) => t.transactionType !== 'Payment')
    assert.ok(charges.length > 0 && charges.every((t) => t.approved === false && t.invoiceID === invoice.id), JSON.stringify(charges))
    h.clock.set('2026-03-01T09:00:00Z')
    assert.is((await customerOf(h, c)).overdueAmount, 0, 'a draft is never overdue')
    // The run's drafts hold its charges: no other run starts meanwhile.
    const other = await h.request('POST', '/billingRuns', { cutoffDate: '2026-02-28', status: 'Requested' })
    assert.is(other.status, 409, JSON.stringify(other.body))
    assert.is(other.body.error_code, 409003)

    const done = await decide(h, run.id, 'Approved')
    assert.equal([done.status, done.invoiceCount, done.invoiceAmount], ['Complete', 1, 100])
    ;[invoice] = await invoicesOf(h, c)
    assert.is(invoice.invoiceNumber, 'INV-000001')
    assert.equal([invoice.amountPaid, invoice.amountOutstanding, invoice.status], [30, 70, 'Overdue'], 'allocated when approved')
    assert.ok((await transactionsOf(h, c)).filter((t) => t.invoiceID === invoice.id).every((t) => t.approved && t.billingRunID === run.id))
    assert.is((await deliveriesOf(h, invoice.id)).filter((d) => d.channel === 'email').length, 1, 'sent when approved')
    assert.is((await readPrintFile(h.platform.context, run.id)).length, 1, 'and in the print file')
    assert.equal((await eventsOf(h, 'invoice.raised')).map((e) => e.data.invoiceNumber), ['INV-000001'])
    assert.is((await eventsOf(h, 'billing_run.completed')).length, 1)

    const feb = await bill(h, '2026-02-28')
    assert.is(feb.invoiceCount, 1)
    const invoices = await invoicesOf(h, c)
    assert.equal(invoices.map((i) => [i.invoiceNumber, i.totalAmount]), [['INV-000001', 100], ['INV-000002', 100]], 'the later run bills February only, numbered next')
  })

  test('a discarded run leaves the charges unapproved; a corrected run bills them once, numbered from 1', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-2', emptyInvoiceAction: 'Charge Minimum', emptyInvoiceActionValue: 5, lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 150, lowInvoiceAction: 'Charge Minimum', lowInvoiceActionValue: 150 })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    const run = await draft(h, '2026-01-31')
    const [drafted] = await invoicesOf(h, c)
    assert.equal([drafted.status, drafted.netAmount], ['Draft', 150], 'topped up to the minimum')
    const discarded = await decide(h, run.id, 'Discarded')
    assert.equal([discarded.status, discarded.invoiceCount], ['Discarded', 0])
    assert.equal(await invoicesOf(h, c), [])
    const rows = await transactionsOf(h, c)
    assert.equal(rows.map((t) => [t.transactionType, t.amount, t.approved, t.invoiceID]), [['Recurring Charge', 100, false, null]], 'the minimum drafted with it is gone')
    // Corrected: the customer's minimum was wrong.
    assert.is((await h.request('PATCH', `/customers/${c}`, { lowInvoiceActionValue: 120 })).status, 200)
    const corrected = await bill(h, '2026-01-31')
    const [invoice] = await invoicesOf(h, c)
    assert.equal([invoice.billingRunID, invoice.invoiceNumber, invoice.netAmount], [corrected.id, 'INV-000001', 120])
    assert.equal((await transactionsOf(h, c)).map((t) => [t.transactionType, t.amount, t.approved]), [['Recurring Charge', 100, true], ['Minimum Charge', 20, true]])
  })

  test("a discarded run's calls' rows go with it: a corrected run with an earlier cutoff bills the calls up to its own, on a draft or not (a customer not due)", async ({ h }) => {
    h.clock.set('2026-03-01T09:00:00Z')
    const t = await h.request('POST', '/tariffs', { name: 'T', baseRoundSeconds: 60 })
    assert.is((await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '1.00' })).status, 201)
    // M is billed monthly; Q quarterly, invoiced in December, so not due again in February.
    const line = async (account: string, number: string, billingCycle: string) => {
      const c = await newCustomer(h, { accountNumber: account, defaultNationalTariff: 'T', billingCycle })
      const n = (await h.request('POST', `/customers/${c}/numbers`, { number })).body.id
      assert.is((await h.request('POST', `/numbers/${n}/features`, { featureType: 'Line Rental', startDate: '2025-12-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })).status, 201)
      return c
    }
    const m = await line('D-M', '01632950001', 'Monthly')
    const q = await line('D-Q', '01632950002', 'Quarterly')
    await bill(h, '2025-12-31')
    const calls = ['01632950001', '01632950002'].flatMap((n) => [`${n},01632960999,2026-01-10T10:00:00Z,60,NAT,national,Gamma`, `${n},01632960999,2026-02-10T10:00:00Z,60,NAT,national,Gamma`])
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...calls, ''].join('\n')
    assert.is((await h.request('POST', '/usageFiles', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })).status, 201)
    const callRows = async (c: string) => (await transactionsOf(h, c)).filter((r) => r.transactionType === 'Call Charges').map((r) => [r.transactionDate, r.dateFrom, r.dateTo, r.amount, r.approved])
    // The wrong cutoff rolls January's and February's calls into one row a number, dated 2026-02-28.
    const wrong = await draft(h, '2026-02-28')
    assert.equal([await callRows(m), await callRows(q)], [[['2026-02-28', '2026-01-10', '2026-02-10', 2, false]], [['2026-02-28', '2026-01-10', '2026-02-10', 2, false]]])
    assert.equal((await invoicesOf(h, q)).length, 1, "Q's row is on no draft: only December's invoice")
    await decide(h, wrong.id, 'Discarded')
    assert.equal([await callRows(m), await callRows(q)], [[], []], 'its calls are unbilled again')
    assert.ok((await transactionsOf(h, m)).some((r) => r.transactionType === 'Recurring Charge' && r.dateFrom === '2026-02-01' && !r.approved), 'the charges it found stay, unapproved')
    // Corrected: January only, as a run with that cutoff bills with no discarded run before it.
    const corrected = await bill(h, '2026-01-31')
    const jan = (await invoicesOf(h, m)).find((i) => i.billingRunID === corrected.id)
    assert.is(jan.netAmount, 11, 'the January call 1.00 and rental 10.00')
    assert.equal([await callRows(m), await callRows(q)], [[['2026-01-31', '2026-01-10', '2026-01-10', 1, true]], [['2026-01-31', '2026-01-10', '2026-01-10', 1, false]]])
    await bill(h, '2026-02-28')
    assert.equal((await invoicesOf(h, m)).map((i) => i.netAmount), [10, 11, 11], 'February: its call and rental')
  })

  test('a customer changed between drafting and approval is billed as drafted; the change goes on the next invoice', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-3' })
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    const run = await draft(h, '2026-01-31')
    // A price change from January, after drafting.
    const changed = await h.request('PATCH', `/features/${f}`, { serviceCharge: '130.00', updatedDate: '2026-01-01' })
    assert.is(changed.status, 200, JSON.stringify(changed.body))
    const [drafted] = await invoicesOf(h, c)
    const drafts = (await transactionsOf(h, c)).filter((t) => t.invoiceID === drafted.id)
    assert.equal(drafts.map((t) => [t.transactionType, t.amount]), [['Recurring Charge', 100]], 'the draft keeps its line')
    await decide(h, run.id, 'Approved')
    const [jan] = await invoicesOf(h, c)
    assert.equal([jan.totalAmount, jan.transactionIDs], [100, drafted.transactionIDs], 'approved as drafted')
    await bill(h, '2026-02-28')
    const [, feb] = await invoicesOf(h, c)
    assert.is(feb.totalAmount, 30 + 130, 'January corrected on the next invoice, then February at the new price')
  })

  test("every status change of a run is in its history: the worker's as system (Running, Review, Complete, Failed), approval and discard by the key", async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-H' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    const statuses = async (id: string) => ((await h.request('GET', `/billingRuns/${id}/history`)).body as any[]).map((e) => [e.action, e.apiKeyName, e.changes.status])
    const approved = await draft(h, '2026-01-31')
    await decide(h, approved.id, 'Approved')
    // Progress counters change with every batch: only the status changes are entries.
    assert.equal(await statuses(approved.id), [
      ['create', 'test-admin', [null, 'Requested']],
      ['update', 'system', ['Requested', 'Running']],
      ['update', 'system', ['Running', 'Review']],
      ['update', 'test-admin', ['Review', 'Approved']],
      ['update', 'system', ['Approved', 'Complete']],
    ])
    const discarded = await draft(h, '2026-02-28')
    await decide(h, discarded.id, 'Discarded')
    assert.equal((await statuses(discarded.id)).slice(1), [
      ['update', 'system', ['Requested', 'Running']],
      ['update', 'system', ['Running', 'Review']],
      ['update', 'test-admin', ['Review', 'Discarded']],
    ])

    const failing = (await h.request('POST', '/billingRuns', { name: 'fails', cutoffDate: '2026-02-28', invoiceDate: '2026-02-28', status: 'Requested' })).body
    const restore = onBillingSteps(h.platform.context.store, (trx) => {
      trx.ledger.raiseInvoices = async () => {
        throw new Error('injected: the invoices were refused')
      }
    })
    const error = await runNextBillingRun(h.platform.context)
      .then(() => null, (e: Error) => e)
      .finally(restore)
    assert.match(error?.message ?? '', /injected/)
    const failed = await runOf(h, failing.id)
    assert.is(failed.status, 'Failed')
    assert.equal((await statuses(failing.id)).slice(1), [
      ['update', 'system', ['Requested', 'Running']],
      ['update', 'system', ['Running', 'Failed']],
    ])
    assert.equal((await eventsOf(h, 'billing_run.failed')).map((e) => e.data), [failed])
  })

  test('Approved and Discarded only from Review; a run in Review changes nothing else', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-4' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    const pending = await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31' })
    assert.is((await h.request('PATCH', `/billingRuns/${pending.body.id}`, { status: 'Approved' })).status, 400)
    assert.is((await h.request('DELETE', `/billingRuns/${pending.body.id}`)).status, 200)
    const run = await draft(h, '2026-01-31')
    const moved = await h.request('PATCH', `/billingRuns/${run.id}`, { status: 'Approved', cutoffDate: '2026-02-28' })
    assert.is(moved.status, 409, JSON.stringify(moved.body))
    assert.is((await runOf(h, run.id)).status, 'Review')
    assert.is((await h.request('PATCH', `/billingRuns/${run.id}`, { status: 'Complete' })).status, 400)
    await decide(h, run.id, 'Approved')
    const late = await h.request('PATCH', `/billingRuns/${run.id}`, { status: 'Discarded' })
    assert.is(late.status, 400, 'a completed run cannot be discarded')
    assert.match(JSON.stringify(late.body), /Review/)
  })

  test('review: null is a run without review (a boolean cleared is false; it answered 500, NOT NULL, before)', async ({ h }) => {
    const run = await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', review: null })
    assert.is(run.status, 201, run.text)
    assert.is(run.body.review, false)
    assert.is((await h.request('PATCH', `/billingRuns/${run.body.id}`, { review: true })).body.review, true)
    assert.is((await h.request('PATCH', `/billingRuns/${run.body.id}`, { review: null })).body.review, false)
    const hook = await h.request('POST', '/webhooks', { url: 'https://example.com/hook', eventTypes: ['customer.created'], active: null })
    assert.is(hook.status, 201, hook.text)
    assert.is(hook.body.active, false)
  })

  test("a draft's rows read unapproved everywhere until approval: one read, the filter, the margin; approval names the run on a carried row, discard leaves it as it was", async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-5' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    const manual = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Installation', amount: 15, transactionDate: '2026-01-15' })
    assert.is(manual.status, 201, JSON.stringify(manual.body))
    const approvedRows = async (approved: boolean) => ((await h.request('GET', `/customers/${c}/transactions?approved=${approved}&limit=1000`)).body as any[]).map((t) => t.amount).sort()
    const margin = async () => (await h.request('GET', '/reports/margin?from=2026-01-01&to=2026-01-31&groupBy=month')).body.rows.map((r: any) => r.revenue)
    const lookAtDraft = async (runID: string) => {
      const [invoice] = await invoicesOf(h, c)
      assert.is(invoice.status, 'Draft')
      assert.equal(await approvedRows(true), [], 'no approved row while the invoice is a draft')
      assert.equal(await approvedRows(false), [100, 15].sort())
      for (const id of invoice.transactionIDs) assert.is((await h.request('GET', `/transactions/${id}`)).body.approved, false, 'read one by one too')
      assert.equal(await margin(), [], 'no revenue billed yet')
      assert.is((await h.request('GET', `/transactions/${manual.body.id}`)).body.billingRunID, null, 'the carried row keeps its run while drafted')
      assert.ok(runID)
    }
    const discarded = await draft(h, '2026-01-31')
    await lookAtDraft(discarded.id)
    await decide(h, discarded.id, 'Discarded')
    const after = (await h.request('GET', `/transactions/${manual.body.id}`)).body
    assert.equal([after.approved, after.invoiceID, after.billingRunID], [false, null, null], 'as it was before the draft')
    assert.equal(await approvedRows(false), [100, 15].sort())

    const run = await draft(h, '2026-01-31')
    await lookAtDraft(run.id)
    await decide(h, run.id, 'Approved')
    assert.equal(await approvedRows(true), [100, 15].sort())
    assert.equal(await approvedRows(false), [])
    const carried = (await h.request('GET', `/transactions/${manual.body.id}`)).body
    assert.equal([carried.approved, carried.billingRunID], [true, run.id], 'invoiced by the run, as a run without review names it')
    assert.equal(await margin(), [115])
  })

  test('approval is shared by the workers over the partitions the run was drafted in (Postgres: several), numbered without a gap', async ({ h }) => {
    const customers: string[] = []
    for (let i = 0; i < 12; i++) {
      const c = await newCustomer(h, { accountNumber: `W-${i}` })
      await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
      customers.push(c)
    }
    const ctx = h.platform.context
    // Three customers (a feature and one each) a partition, a customer a step.
    const options = { partitionFeatures: 6, batchSize: 1 }
    const requested = await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested', review: true })
    assert.is(requested.status, 201, JSON.stringify(requested.body))
    const runID = String(requested.body.id)
    assert.is((await runNextBillingRun(ctx, { ...options, holder: 'drafting' }))?.status, 'Review')
    const partitions = (await ctx.store.runPartitions.totals(runID)).partitions
    assert.ok(ctx.store.runPartitions.parallel ? partitions > 1 : partitions === 1, `${partitions} partitions`)
    assert.is((await h.request('PATCH', `/billingRuns/${runID}`, { status: 'Approved' })).status, 200)
    // Reopened, the run's partitions go to whichever worker claims them, one at a time each.
    const a = await ctx.store.runPartitions.claim(runID, 'a', 60_000)
    const b = await ctx.store.runPartitions.claim(runID, 'b', 60_000)
    assert.ok(a)
    if (ctx.store.runPartitions.parallel) {
      assert.ok(b && b.id !== a.id, 'a second worker takes another partition of the approval')
      await ctx.store.runPartitions.release(b.id, 'b')
    } else assert.is(b, null)
    await ctx.store.runPartitions.release(a.id, 'a')
    const [first, second] = await Promise.all(['a', 'b'].map((holder) => runNextBillingRun(ctx, { ...options, holder })))
    const outcomes = [first, second].filter((o) => o !== null)
    assert.is(outcomes.reduce((n, o) => n + o.invoices, 0), 12, 'each draft finalised once')
    if (ctx.store.runPartitions.parallel) assert.ok(outcomes.length === 2 && outcomes.every((o) => o.invoices > 0), `both workers finalised drafts: ${JSON.stringify(outcomes)}`)
    assert.is((await runOf(h, runID)).status, 'Complete')
    const numbers: string[] = []
    for (const c of customers) {
      const [invoice] = await invoicesOf(h, c)
      numbers.push(invoice.invoiceNumber)
      assert.ok((await transactionsOf(h, c)).every((t) => t.approved && t.billingRunID === runID))
    }
    assert.equal(numbers.sort(), Array.from({ length: 12 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`))
  })

  test('a charge changed or a feature dropped while the run is in Review, then the run discarded: the corrected run bills each once, as changed', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-D' })
    const raised = await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    const dropped = await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    const run = await draft(h, '2026-01-31')
    // From 1 January (contract 17.5: without updatedDate, from the first day not yet charged, which the draft has charged).
    assert.is((await h.request('PATCH', `/features/${raised}`, { serviceCharge: '130.00', updatedDate: '2026-01-01' })).status, 200)
    const drop = await h.request('POST', `/features/${dropped}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-15' })
    assert.is(drop.status, 200, JSON.stringify(drop.body))
    await decide(h, run.id, 'Discarded')
    await bill(h, '2026-01-31')
    const [invoice, ...more] = await invoicesOf(h, c)
    assert.equal(more, [])
    // 130.00, and 100.00 × 15 / 31 = 48.39 for the feature dropped on the 15th.
    assert.is(invoice.netAmount, 178.39)
    const rows = (await transactionsOf(h, c)).filter((t) => t.amount !== 0)
    assert.equal(rows.map((t) => [t.featureID === raised ? 'raised' : 'dropped', t.amount, t.approved, t.invoiceID === invoice.id]).sort(), [['dropped', 48.39, true, true], ['raised', 130, true, true]])
  })

  test("a carrier's bill checked while the run is in Review finds nothing billed yet (17.4: what we billed); after approval it finds the charge", async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-C' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '30.00', serviceChargeInterval: 'Calendar Monthly', carrier: 'Gamma', carrierProduct: 'SIP', carrierReference: 'REF-1', serviceChargeCarrier: '10.00' })
    const check = async () => {
      const posted = await h.request('POST', '/carrierBills?carrier=Gamma&period=2026-01', undefined, { raw: 'productCode,reference,cost\nSIP,REF-1,10.00\n', headers: { 'content-type': 'text/csv' } })
      assert.is(posted.status, 201, JSON.stringify(posted.body))
      const matched = (await h.request('GET', `/carrierBills/${posted.body.id}/reconciliation`)).body.matched as any[]
      return [posted.body.matchedCount, posted.body.matchedBilled, matched.map((m) => m.billedAmount)]
    }
    const run = await draft(h, '2026-01-31')
    assert.equal(await check(), [1, 0, [0]], "the draft's charge is not billed yet")
    await decide(h, run.id, 'Approved')
    assert.equal(await check(), [1, 30, [30]])
  })

  test.run()
}
