import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/** Contract 16.2, 16.4: every report's sums equal the ledger's, on random features, charges, credit notes and payments. */
const pence = (x: number) => Math.round(x * 100)
const money = (p: number) => (p / 100).toFixed(2)
const rates = ['Standard 20%', 'Reduced 5%', 'Zero Rated'] as const

const featureArb = fc.record({
  startDay: fc.integer({ min: 0, max: 40 }),
  charge: fc.integer({ min: 1, max: 9_000 }),
  carrier: fc.option(fc.integer({ min: 0, max: 9_000 }), { nil: null }),
  connection: fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: null }),
  rate: fc.constantFrom(...rates),
  carrierName: fc.constantFrom('Gamma', 'Daisy', null),
  code: fc.constantFrom('4000', null),
})

async function all(h: Harness, path: string): Promise<any[]> {
  const out: any[] = []
  for (let after = '0'; ; ) {
    const page = (await h.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000&idAfter=${after}`)).body as any[]
    out.push(...page)
    if (page.length < 1000) return out
    after = page.at(-1).id
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`books: reports sum to the ledger [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('property: margin (every grouping), journal and run journals equal the ledger exactly', async ({ h }) => {
    let day = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(featureArb, { minLength: 1, maxLength: 3 }),
        fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: null }),
        fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: null }),
        async (features, credit, payment) => {
          day += 45
          const cutoff = addDays('2026-01-31' as DateOnly, day)
          h.clock.set(`${cutoff}T09:00:00Z`)
          const c = await newCustomer(h, { VATRate: 'Standard 20%' })
          for (const f of features) {
            await newFeature(h, c, {
              startDate: addDays(cutoff, -f.startDay),
              serviceChargeInterval: 'Calendar Monthly',
              serviceCharge: money(f.charge),
              ...(f.carrier === null ? {} : { serviceChargeCarrier: money(f.carrier), connectionChargeCarrier: money(f.carrier) }),
              ...(f.connection === null ? {} : { connectionCharge: money(f.connection) }),
              ...(f.carrierName ? { carrier: f.carrierName } : {}),
              ...(f.code ? { serviceTransactionCode: f.code } : {}),
              VATRate: f.rate,
              featureType: f.code ? 'Broadband' : 'Support',
            })
          }
          const run = await bill(h, cutoff)
          const [invoice] = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
          if (credit !== null && invoice) {
            const r = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'p', amount: money(Math.min(credit, pence(invoice.netAmount))) })
            assert.ok(r.status === 201 || r.body.error_code === 400101, r.text)
          }
          if (payment !== null) assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: money(-payment), transactionDate: cutoff })).status, 201)

          const ledger = await all(h, '/transactions')
          const revenueRows = ledger.filter((t) => (t.approved && t.transactionType !== 'Payment' && t.transactionType !== 'Refund') || t.creditNoteID)
          const revenue = revenueRows.reduce((s, t) => s + pence(t.amount), 0)
          const cost = revenueRows.reduce((s, t) => s + pence(t.carrierCost ?? 0), 0)
          for (const groupBy of ['customer', 'carrier', 'featureType', 'callClass', 'month']) {
            const report = (await h.request('GET', `/reports/margin?groupBy=${groupBy}`)).body
            assert.equal([pence(report.totals.revenue), pence(report.totals.cost)], [revenue, cost], groupBy)
            const rows = report.rows as any[]
            assert.equal([rows.reduce((s, r) => s + pence(r.revenue), 0), rows.reduce((s, r) => s + pence(r.cost), 0)], [revenue, cost], `${groupBy} rows`)
          }
          const csv = (await h.request('GET', '/reports/margin?groupBy=month', undefined, { headers: { accept: 'text/csv' } })).text.trim().split('\r\n')
          assert.is(csv.at(-1)!.split(',')[1], String(revenue / 100))

          // The journal: every final invoice, every credit note, every payment.
          const invoices = await all(h, '/invoices')
          const notes = await all(h, '/creditNotes')
          const payments = ledger.filter((t) => t.transactionType === 'Payment')
          const net = invoices.reduce((s, i) => s + pence(i.netAmount), 0) + notes.reduce((s, n) => s + pence(n.netAmount), 0) + payments.reduce((s, p) => s + pence(p.amount), 0)
          const vat = invoices.reduce((s, i) => s + pence(i.VATAmount), 0) + notes.reduce((s, n) => s + pence(n.VATAmount), 0)
          const journal = (await h.request('GET', '/journal')).body
          assert.equal([pence(journal.totals.net), pence(journal.totals.VAT)], [net, vat])
          assert.is((journal.lines as any[]).reduce((s, l) => s + pence(l.net), 0), net)
          const runInvoices = invoices.filter((i) => i.billingRunID === run.id)
          const runJournal = (await h.request('GET', `/billingRuns/${run.id}/journal`)).body
          assert.equal(
            [pence(runJournal.totals.net), pence(runJournal.totals.VAT)],
            [runInvoices.reduce((s, i) => s + pence(i.netAmount), 0), runInvoices.reduce((s, i) => s + pence(i.VATAmount), 0)],
          )
        },
      ),
      { numRuns: 15 },
    )
  })

  test.run()
}
