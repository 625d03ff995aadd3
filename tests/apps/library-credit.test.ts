import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { withStandardFeature } from '../../core/features/standard-feature.js'
import { createBillingPlatform, FixedClock, parseMoney, type BillingPlatform } from '../../index.js'
import { failure } from '../support/library-failure.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * The library's credit notes, refunds, invoice preview, history and scoped lists answer as the
 * HTTP API does (README, "As a library"), on every database target.
 */
const BASE = '/backend/api/v1'

interface Ctx {
  target: Target
  billing: BillingPlatform
  key: string
  customerID: string
  invoiceID: string
}

async function http(ctx: Ctx, method: string, path: string, body?: unknown, accept = 'application/json') {
  const res = await ctx.billing.http.request(`${BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.key}`, accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: accept === 'application/json' ? await res.json() : await res.text() }
}

/** A customer billed once: 10.00 at 20% (12.00 in all), paid 20.00 beforehand, so 8.00 of credit is held. */
async function billedCustomer(billing: BillingPlatform, accountNumber: string, cutoffDate: string) {
  const customer = await billing.customers.create({ accountNumber, lastname: 'Lovelace' })
  await billing.transactions.add(customer.id, { transactionType: 'Installation', amount: '10.00', VATRate: 'Standard 20%', transactionDate: '2026-01-10' })
  await billing.transactions.add(customer.id, { transactionType: 'Payment', amount: '-20.00', transactionDate: '2026-01-10' })
  await billing.billingRuns.create({ name: `run ${accountNumber}`, cutoffDate, invoiceDate: cutoffDate, status: 'Requested' })
  await billing.billingRuns.runNext()
  const [invoice] = (await billing.invoices.listOf(customer.id)).items
  assert.ok(invoice, 'the run raised an invoice')
  return { customerID: customer.id, invoiceID: invoice.id }
}

for (const name of activeTargets()) {
  const test = suite<Ctx>(`apps: the library's credit notes, refunds, previews and scoped lists [${name}]`)

  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.billing = await createBillingPlatform({ databaseUrl: ctx.target.databaseUrl, schema: ctx.target.schema, clock: new FixedClock('2026-01-15T10:00:00Z'), allowPrivateWebhooks: true })
    ctx.key = (await ctx.billing.apiKeys.create({ name: 'test', expertLevel: 5 })).secret
    Object.assign(ctx, await billedCustomer(ctx.billing, 'ACC-CN', '2026-01-15'))
  })
  test.after(async (ctx) => {
    await ctx.billing.close()
    await ctx.target.dispose()
  })

  test('credit notes: issued, read, listed and rendered as the API answers them', async (ctx) => {
    const { billing, customerID, invoiceID } = ctx
    const note = await billing.creditNotes.issue(invoiceID, { reason: 'Goodwill', amount: '5.00' })
    assert.equal([note.netAmount, note.VATAmount, note.totalAmount, note.invoiceID, note.customerID], [-50_000n, -10_000n, -60_000n, invoiceID, customerID])
    assert.not.ok('commissionBillingRunID' in note, 'an internal field is left out')
    const json = (await http(ctx, 'GET', `/creditNotes/${note.id}`)).body
    assert.equal(billing.toWire('creditNotes', note), json)
    assert.equal(billing.toWire('creditNotes', await billing.creditNotes.get(note.id)), json)
    assert.equal((await billing.creditNotes.list()).items.map((n) => billing.toWire('creditNotes', n)), (await http(ctx, 'GET', '/creditNotes')).body)
    assert.equal((await billing.creditNotes.listOf({ customerID })).items.map((n) => n.id), [note.id])
    assert.equal((await billing.creditNotes.listOf({ invoiceID })).items.map((n) => billing.toWire('creditNotes', n)), (await http(ctx, 'GET', `/invoices/${invoiceID}/creditNotes`)).body)
    const pdf = await billing.creditNotes.document(note.id, { format: 'pdf' })
    assert.is(Buffer.from(pdf.subarray(0, 5)).toString(), '%PDF-')
    const html = await billing.creditNotes.document(note.id, { format: 'html' })
    assert.is(html, (await http(ctx, 'GET', `/creditNotes/${note.id}`, undefined, 'text/html')).body)
    assert.ok(html.includes(note.creditNoteNumber!), 'the document names the credit note')
  })

  test('credit notes: refused alike', async (ctx) => {
    const { billing, customerID, invoiceID } = ctx
    const alike = async (call: () => Promise<unknown>, method: string, path: string, body?: unknown) => {
      const library = await failure(call)
      const { status, body: answer } = await http(ctx, method, path, body)
      assert.equal([library.error_code, library.error], [answer.error_code, answer.error], `${method} ${path} answered ${status}`)
    }
    // @ts-expect-error reason is required: a JavaScript caller is told at run time
    await alike(() => billing.creditNotes.issue('999', { amount: '1' }), 'POST', '/invoices/999/creditNotes', { amount: '1' })
    // @ts-expect-error reason is required: a JavaScript caller is told at run time
    await alike(() => billing.creditNotes.issue(invoiceID, { amount: '1' }), 'POST', `/invoices/${invoiceID}/creditNotes`, { amount: '1' })
    await alike(() => billing.creditNotes.issue(invoiceID, { reason: 'Too much', amount: '1000' }), 'POST', `/invoices/${invoiceID}/creditNotes`, { reason: 'Too much', amount: '1000' })
    await alike(() => billing.creditNotes.get('999'), 'GET', '/creditNotes/999')
    await alike(() => billing.creditNotes.listOf({ customerID: '999' }), 'GET', '/customers/999/creditNotes')
    await alike(() => billing.creditNotes.listOf({ invoiceID: '999' }), 'GET', '/invoices/999/creditNotes')
    await alike(() => billing.customers.refund('999', { amount: 'x' }), 'POST', '/customers/999/refunds', { amount: 'x' })
    await alike(() => billing.customers.refund(customerID, { amount: '1000.00' }), 'POST', `/customers/${customerID}/refunds`, { amount: '1000.00' })
    assert.is((await failure(() => billing.creditNotes.document('999', { format: 'pdf' }))).error_code, 404001)
    // @ts-expect-error only pdf and html
    assert.is((await failure(() => billing.creditNotes.document('1', { format: 'docx' }))).error_code, 400103)
    // @ts-expect-error no other owner: HTTP has no such route
    assert.is((await failure(() => billing.creditNotes.listOf({ numberID: '1' }))).error_code, 404001)
  })

  test('refunds: held credit paid back as a Refund transaction, as POST /customers/<id>/refunds makes it', async (ctx) => {
    const { billing, customerID } = ctx
    const refund = await billing.customers.refund(customerID, { amount: '2.50', reference: 'BACS 1' })
    assert.equal([refund.transactionType, refund.amount, refund.description, refund.customerID], ['Refund', 25_000n, 'Refund: BACS 1', customerID])
    assert.not.ok('settles' in refund, 'an internal field is left out')
    assert.equal(billing.toWire('transactions', refund), (await http(ctx, 'GET', `/transactions/${refund.id}`)).body)
  })

  test('previewInvoice answers the fields GET /customers/<id>/invoicePreview shows, and its document', async (ctx) => {
    const { billing } = ctx
    const customer = await billing.customers.create({ accountNumber: 'ACC-PREVIEW', lastname: 'Babbage' })
    await billing.transactions.add(customer.id, { transactionType: 'Installation', amount: '30.00', VATRate: 'Standard 20%', transactionDate: '2026-01-12' })
    const preview = await billing.customers.previewInvoice(customer.id, { cutoffDate: '2026-01-31' })
    const json = (await http(ctx, 'GET', `/customers/${customer.id}/invoicePreview?cutoffDate=2026-01-31`)).body
    assert.ok(preview.invoice && preview.lines.length > 0, preview.reason ?? 'an invoice would be raised')
    const keys = (o: object) => Object.keys(o).sort()
    assert.equal(keys(preview), keys(json))
    assert.equal(keys(preview.invoice!), keys(json.invoice))
    assert.equal(preview.lines.map(keys), json.lines.map(keys))
    for (const internal of ['kind', 'series', 'revision', 'rate', 'accountCode', 'settles', 'callsFrom', 'callsTo', 'callMark', 'callIDs']) {
      assert.not.ok(preview.lines.some((line) => internal in line), `${internal} is left out`)
    }
    assert.equal(preview.lines.map((line) => [line.transactionID, line.amount]), json.lines.map((line: { transactionID: string; amount: number }) => [line.transactionID, parseMoney(line.amount)]))
    // Postgres skips the IDs a rolled-back preview took, so each preview's draft has its own.
    const unnumbered = (page: string) => page.replace(/Invoice \d+/g, 'Invoice N').replace(/(Invoice number<\/dt><dd>)\d+/, '$1N')
    const html = await billing.customers.previewInvoiceDocument(customer.id, { cutoffDate: '2026-01-31', format: 'html' })
    assert.is(unnumbered(html), unnumbered((await http(ctx, 'GET', `/customers/${customer.id}/invoicePreview?cutoffDate=2026-01-31`, undefined, 'text/html')).body))
    const pdf = await billing.customers.previewInvoiceDocument(customer.id, { cutoffDate: '2026-01-31', format: 'pdf', pages: 'short' })
    assert.is(Buffer.from(pdf.subarray(0, 5)).toString(), '%PDF-')
    const nothing = await billing.customers.create({ accountNumber: 'ACC-NOTHING' })
    const refused = await failure(() => billing.customers.previewInvoiceDocument(nothing.id, { cutoffDate: '2026-01-31', format: 'html' }))
    const answer = (await http(ctx, 'GET', `/customers/${nothing.id}/invoicePreview?cutoffDate=2026-01-31`, undefined, 'text/html')).body
    assert.equal([refused.error_code, refused.error], [JSON.parse(answer).error_code, JSON.parse(answer).error])
  })

  test('a field given as undefined is absent: create and update take it, as the types promise', async (ctx) => {
    const { billing, customerID } = ctx
    const made = await billing.customers.create({ accountNumber: 'ACC-UNDEFINED', lastname: 'Hopper', title: undefined })
    assert.is(made.title, null)
    await billing.customers.update(made.id, { title: 'Dr' })
    const updated = await billing.customers.update(made.id, { title: undefined, firstnames: 'Grace' })
    assert.equal([updated.title, updated.firstnames], ['Dr', 'Grace'], 'title unchanged')
    // Those that look at the body's names themselves read it the same way.
    const { webhook } = await billing.webhooks.create({ url: 'http://127.0.0.1:9/hook', active: undefined })
    assert.is(webhook.active, true, 'absent: active, as without it')
    const [run] = (await billing.billingRuns.list()).items
    assert.is(run.status, 'Complete')
    assert.is((await billing.billingRuns.update(run.id, { name: undefined })).id, run.id, 'nothing changes, so nothing is locked')
    assert.equal(withStandardFeature({ standardFeature: 'Line', serviceCharge: undefined }, { Line: { serviceCharge: '5.00' } as never }), { serviceCharge: '5.00', standardFeature: 'Line' })
    assert.ok(customerID)
  })

  test('history.listOf is not_found for an unknown item or a collection without history; transactions.listOf by another owner too', async (ctx) => {
    const { billing, customerID } = ctx
    assert.equal((await billing.history.listOf('customers', customerID)).items.map((e) => billing.toWire('history', e)), (await http(ctx, 'GET', `/customers/${customerID}/history`)).body)
    const library = await failure(() => billing.history.listOf('customers', '999'))
    const answer = (await http(ctx, 'GET', '/customers/999/history')).body
    assert.equal([library.error_code, library.error], [answer.error_code, answer.error])
    // @ts-expect-error events keep no history of their own: HTTP has no such route (404)
    assert.is((await failure(() => billing.history.listOf('events', '1'))).error_code, 404001)
    // @ts-expect-error HTTP lists transactions by customer, number or feature only
    assert.is((await failure(() => billing.transactions.listOf({ serviceID: '1' }))).error_code, 404001)
    assert.is((await failure(() => billing.transactions.listOf({ customerID: '999' }))).error_code, 404001)
  })

  test.run()
}
