import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { parseMoney } from '../../core/money/money.js'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { fingerprinter } from '../support/db-fingerprint.js'
import { openHarness, type Harness } from '../support/harness.js'
import { isPdf, pdfLines } from '../support/pdf-text.js'
import { customersApi } from '../../apps/library/customers-api.js'
import { activeTargets } from '../support/targets.js'
import { BASE } from '../support/harness.js'

/** The fields a preview line and an invoiced transaction share, to compare line by line. */
const LINE = ['transactionType', 'description', 'transactionDate', 'dateFrom', 'dateTo', 'quantity', 'amount', 'VATRate', 'VATAmount', 'featureID', 'numberID', 'customerID'] as const
const INVOICE = ['customerID', 'invoiceDate', 'dueDate', 'overdueDate', 'netAmount', 'VATAmount', 'totalAmount', 'suppressed', 'invoiceMessage'] as const
const pick = (o: any, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, o[n] ?? null]))

const preview = (h: Harness, c: string, cutoffDate: string) => h.request('GET', `/customers/${c}/invoicePreview?cutoffDate=${cutoffDate}`)

/** The previewed invoice's document, by `Accept`. */
async function previewDocument(h: Harness, c: string, cutoffDate: string, accept: string) {
  const res = await h.platform.app.request(`${BASE}/customers/${c}/invoicePreview?cutoffDate=${cutoffDate}`, { headers: { authorization: `Bearer ${h.keys.admin}`, accept } })
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: new Uint8Array(await res.arrayBuffer()) }
}

/** The invoice a run raised for the customer and its lines, in ID order. */
async function invoiceOfRun(h: Harness, c: string, runID: string) {
  const invoice = ((await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]).find((i) => i.billingRunID === runID) ?? null
  const lines = invoice ? ((await h.request('GET', `/customers/${c}/transactions?limit=1000`)).body as any[]).filter((t) => t.invoiceID === invoice.id) : []
  return { invoice, lines }
}

/** Requests a plain run with the cutoff (invoice date: today, as a preview's, unless given) and runs it. */
async function run(h: Harness, cutoffDate: string, invoiceDate?: string): Promise<string> {
  const r = await h.request('POST', '/billingRuns', { cutoffDate, status: 'Requested', ...(invoiceDate ? { invoiceDate } : {}) })
  assert.is(r.status, 201, JSON.stringify(r.body))
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('billing-poll')
  await scheduler.stop()
  assert.is((await h.request('GET', `/billingRuns/${r.body.id}`)).body.status, 'Complete')
  return r.body.id
}

/** A tariff for the customer's calls, and a number with `calls` calls in the days before `before`. */
async function withCalls(h: Harness, c: string, tag: string, calls: number, before: DateOnly) {
  const t = await h.request('POST', '/tariffs', { name: `Calls ${tag}`, baseRoundSeconds: 1 })
  await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.0300', costConnection: '0.0100' })
  assert.is((await h.request('PATCH', `/customers/${c}`, { defaultNationalTariff: `Calls ${tag}` })).status, 200)
  const digits = tag.replace(/\D/g, '').padStart(6, '0').slice(-6)
  const n = await h.request('POST', `/customers/${c}/numbers`, { number: `01632 ${digits}` })
  assert.is(n.status, 201, JSON.stringify(n.body))
  if (calls === 0) return
  const rows = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID']
  for (let i = 0; i < calls; i++) rows.push(`01632${digits},0161 496 0${String(i).padStart(3, '0')},${addDays(before, -1 - (i % 20))}T10:${String(i % 60).padStart(2, '0')}:00Z,${30 + i * 17},NAT,national,Gamma,${tag}-${i}`)
  const r = await h.request('POST', `/usageFiles?name=${tag}.csv`, undefined, { raw: rows.join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
  assert.is(r.status < 300, true, JSON.stringify(r.body))
}

const intervals = ['Monthly', 'Quarterly', 'Calendar Monthly', 'Calendar Quarterly', 'Annually'] as const
const schemes = ['None', 'First Month Free', '10% First Year', '3 Months Half Price'] as const

const customerArb = fc.record({
  billingCycle: fc.constantFrom('Monthly', 'Quarterly', 'Annually'),
  paymentTerms: fc.option(fc.integer({ min: 0, max: 45 }), { nil: undefined }),
  paymentTermsType: fc.constantFrom('Days', 'Months', 'Days after month end'),
  emptyInvoiceAction: fc.constantFrom('Suppress', 'Send', 'Charge Minimum'),
  low: fc.option(fc.constantFrom('Carry Forward', 'Charge Minimum', 'Suppress'), { nil: undefined }),
  features: fc.array(
    fc.record({
      startOffset: fc.integer({ min: -80, max: 25 }),
      pence: fc.integer({ min: 0, max: 20_000 }),
      connection: fc.option(fc.integer({ min: 1, max: 9_999 }), { nil: undefined }),
      interval: fc.constantFrom(...intervals),
      count: fc.integer({ min: 1, max: 3 }),
      scheme: fc.constantFrom(...schemes),
    }),
    { minLength: 0, maxLength: 4 },
  ),
  calls: fc.integer({ min: 0, max: 6 }),
  payment: fc.option(fc.integer({ min: 1, max: 30_000 }), { nil: undefined }),
  earlierRun: fc.boolean(),
  cutoffOffset: fc.integer({ min: 0, max: 40 }),
})

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`invoice preview (contract 16.1) [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('property: for random customers the preview equals the invoice a run with the same cutoff raises, line for line, and writes nothing', async ({ h }) => {
    const fingerprint = await fingerprinter(h.platform.database)
    let base = '2026-02-01' as DateOnly
    let n = 0
    let compared = 0
    await fc.assert(
      fc.asyncProperty(customerArb, async (x) => {
        n += 1
        // Each case starts after the last one's run: runs bill everyone, and time only goes on.
        base = addDays(base, 120)
        h.clock.set(`${base}T09:00:00Z`)
        const c = await newCustomer(h, {
          accountNumber: `P-${n}`,
          billingCycle: x.billingCycle,
          ...(x.paymentTerms === undefined ? {} : { paymentTerms: x.paymentTerms, paymentTermsType: x.paymentTermsType }),
          emptyInvoiceAction: x.emptyInvoiceAction,
          emptyInvoiceActionValue: 4,
          ...(x.low ? { lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 60, lowInvoiceAction: x.low, lowInvoiceActionValue: 60 } : {}),
        })
        for (const f of x.features) {
          await newFeature(h, c, {
            startDate: addDays(base, f.startOffset),
            serviceCharge: (f.pence / 100).toFixed(2),
            ...(f.connection ? { connectionCharge: (f.connection / 100).toFixed(2) } : {}),
            serviceChargeInterval: f.interval,
            featureCount: f.count,
            initialFeatureDiscountScheme: f.scheme,
          })
        }
        await withCalls(h, c, `P${n}`, x.calls, base)
        if (x.payment) await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: (x.payment / 100).toFixed(2), transactionDate: addDays(base, -3) })
        if (x.earlierRun) await run(h, addDays(base, -30), addDays(base, -30))
        const cutoff = addDays(base, x.cutoffOffset - 20)
        const before = await fingerprint()
        const shown = await preview(h, c, cutoff)
        assert.is(shown.status, 200, JSON.stringify(shown.body))
        assert.is(await fingerprint(), before, 'the preview wrote nothing')
        const raised = await invoiceOfRun(h, c, await run(h, cutoff))
        if (!raised.invoice) {
          assert.is(shown.body.invoice, null, `no invoice raised: ${JSON.stringify(shown.body)}`)
          assert.type(shown.body.reason, 'string')
          return
        }
        assert.ok(shown.body.invoice, `an invoice was raised: ${JSON.stringify(raised.invoice)}`)
        assert.equal(pick(shown.body.invoice, INVOICE), pick(raised.invoice, INVOICE))
        assert.equal(shown.body.lines.map((l: any) => pick(l, LINE)), raised.lines.map((l: any) => pick(l, LINE)))
        // A line already in the ledger is named by its ID; the run put the same row on the invoice.
        for (const [i, l] of shown.body.lines.entries()) if (l.transactionID) assert.is(l.transactionID, raised.lines[i].id)
        if (raised.lines.length > 1) compared += 1
      }),
      { numRuns: 12, seed: 53 },
    )
    assert.ok(compared >= 4, `only ${compared} cases compared invoices of several lines`)
  })

  test('preview of a customer in final bill status: charged and invoiced through its final-bill date', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'P-FINAL' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly' })
    await act(h, `/customers/${c}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-02-14' })
    const shown = await preview(h, c, '2026-01-31')
    assert.is(shown.status, 200, JSON.stringify(shown.body))
    assert.ok(shown.body.invoice, JSON.stringify(shown.body))
    const raised = await invoiceOfRun(h, c, await run(h, '2026-01-31'))
    assert.equal(pick(shown.body.invoice, INVOICE), pick(raised.invoice, INVOICE))
    assert.equal(shown.body.lines.map((l: any) => pick(l, LINE)), raised.lines.map((l: any) => pick(l, LINE)))
    assert.ok(raised.lines.some((l: any) => l.dateTo === '2026-02-14'), 'through the final-bill date')
    const after = await preview(h, c, '2026-02-28')
    assert.equal([after.status, after.body.invoice], [200, null], 'a final bill is invoiced once')
    assert.match(after.body.reason, /no invoice/)
  })

  test('a cutoff before the last invoice is refused (400 naming cutoffDate and why); a bad or missing date too', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'P-EARLY' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    const early = await preview(h, c, '2026-01-15')
    assert.is(early.status, 400, JSON.stringify(early.body))
    assert.match(JSON.stringify(early.body), /cutoffDate 2026-01-15 is before .*last invoice, dated 2026-01-31/)
    assert.is((await preview(h, c, '2026-13-01')).status, 400)
    assert.is((await h.request('GET', `/customers/${c}/invoicePreview`)).status, 400)
    assert.is((await preview(h, '999999', '2026-02-28')).status, 404)
    // An unknown customer is 404 whatever the query says, as every item route answers (queryAfterItem).
    for (const query of ['', '?cutoffDate=2026-13-01', '?cutoffDate=2026-02-28&pages=x', '?cutoffDate=2026-02-28&colour=red']) {
      const missing = await h.request('GET', `/customers/999999/invoicePreview${query}`)
      assert.equal([missing.status, missing.body.error_code], [404, 404001], query)
    }
  })

  test('as a PDF and an HTML page, the document of the previewed invoice, with no number; nothing written', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'P-DOC', companyName: 'Preview Widgets Ltd' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '12.34', serviceChargeInterval: 'Calendar Monthly', description: 'Hosted PBX seat' })
    const fingerprint = await fingerprinter(h.platform.database)
    const before = await fingerprint()
    const html = await previewDocument(h, c, '2026-01-31', 'text/html')
    assert.equal([html.status, html.type], [200, 'text/html; charset=utf-8'])
    const page = Buffer.from(html.bytes).toString('utf8')
    assert.match(page, /Preview Widgets Ltd/)
    assert.match(page, /Hosted PBX seat/)
    const pdf = await previewDocument(h, c, '2026-01-31', 'application/pdf')
    assert.equal([pdf.status, pdf.type], [200, 'application/pdf'])
    assert.ok(isPdf(pdf.bytes))
    assert.match((await pdfLines(pdf.bytes)).flat().join(' '), /12\.34/)
    assert.is(await fingerprint(), before)
    const none = await previewDocument(h, await newCustomer(h, { accountNumber: 'P-NONE' }), '2026-01-31', 'application/pdf')
    assert.is(none.status, 404, 'no invoice, no document')
    // The library answers the same as the API.
    const lib = await customersApi(h.platform.context).previewInvoice(c, { cutoffDate: '2026-01-31' })
    assert.equal([lib.invoice?.netAmount, lib.lines.length, lib.reason], [parseMoney('12.34'), 1, null])
  })

  test('a review run drafts exactly the preview of each customer', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'P-REV', lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 50, lowInvoiceAction: 'Charge Minimum', lowInvoiceActionValue: 50 })
    await newFeature(h, c, { startDate: '2026-01-10', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly', initialFeatureDiscountScheme: '10% First Year' })
    const shown = await preview(h, c, '2026-01-31')
    const r = await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', status: 'Requested', review: true })
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    const drafted = await invoiceOfRun(h, c, r.body.id)
    assert.is(drafted.invoice.status, 'Draft')
    assert.equal(pick(shown.body.invoice, INVOICE), pick(drafted.invoice, INVOICE))
    assert.equal(shown.body.lines.map((l: any) => pick(l, LINE)), drafted.lines.map((l: any) => pick(l, LINE)))
    assert.ok(drafted.lines.some((l: any) => l.transactionType === 'Minimum Charge') && drafted.lines.some((l: any) => l.transactionType === 'Recurring Charge Discount'))
  })

  test.run()
}
