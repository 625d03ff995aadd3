import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { numberShows, pagesOf, parseBillLength } from '../../core/documents/bill-pages.js'
import { displayDuration, displayMoney } from '../../core/documents/display.js'
import { buildInvoiceDocument } from '../../core/documents/invoice-document.js'
import type { InvoiceSources } from '../../core/documents/invoice-sources.js'
import { isBillingError } from '../../core/errors.js'
import { add, fromUnits, parseMoney, sum, ZERO, type Money } from '../../core/money/money.js'
import { billPages } from '../../core/presets/engine-lists.js'
import { defaultPresets, mergePresets } from '../../core/presets/presets.js'

const test = suite('core: invoice document model')
const m = (s: string) => parseMoney(s)!

function sources(over: Partial<{ customer: any; transactions: any[]; numbers: any[]; calls: any[]; invoice: any }> = {}): InvoiceSources {
  const transactions = over.transactions ?? [
    { id: '1', transactionType: 'Recurring Charge', featureID: 'f1', numberID: 'n1', serviceID: null, amount: m('10.00'), VATAmount: m('2.00'), VATRate: 'Standard 20%', dateFrom: '2026-01-01', dateTo: '2026-01-31' },
    { id: '2', transactionType: 'Call Charges', featureID: null, numberID: 'n1', serviceID: null, amount: m('1.25'), VATAmount: m('0.25'), VATRate: 'Standard 20%' },
    { id: '3', transactionType: 'Connection Charge', featureID: 'f2', numberID: null, serviceID: 's1', amount: m('50.00'), VATAmount: ZERO, VATRate: 'Zero Rated' },
  ]
  const net = sum(transactions.map((t) => t.amount))
  const vat = sum(transactions.map((t) => t.VATAmount))
  return {
    invoice: { id: '7', invoiceDate: '2026-01-31', dueDate: '2026-02-14', netAmount: net, VATAmount: vat, totalAmount: add(net, vat), amountPaid: ZERO, amountOutstanding: add(net, vat), status: 'Unpaid', invoiceMessage: null, ...over.invoice } as any,
    customer: { id: '1', accountNumber: 'ACC-1', title: 'Dr', firstnames: 'Ada', lastname: 'Lovelace', currency: 'GBP', shortBillPages: [], longBillPages: [], ...over.customer } as any,
    transactions: transactions as any,
    features: [
      { id: 'f1', description: null, featureType: 'Line Rental' },
      { id: 'f2', description: 'Fibre install', featureType: 'Installation' },
    ],
    numbers: over.numbers ?? [{ id: 'n1', number: '020 7946 0018', description: null, displayWith: null, shortBillPages: [], longBillPages: [] }],
    services: [{ id: 's1', serviceName: 'Office fibre', serviceType: 'FTTP', description: null }],
    calls: over.calls ?? [{ id: 'c1', numberID: 'n1', transactionID: '2', startTime: '2026-01-14T10:05:00.000Z', dialledNumber: '07700 900123', callType: 'mobile', chargeBand: 'MOB', durationSeconds: 61, ratedDuration: 120, cost: m('1.25') }],
    payments: [],
  }
}
const build = (s: InvoiceSources, length: 'short' | 'long' = 'long', presets = defaultPresets) => buildInvoiceDocument(s, { length, presets })

test('money is shown with the currency symbol, 2 decimals half up, thousands grouped', () => {
  assert.is(displayMoney(m('1234.565'), 'GBP'), '£1,234.57')
  assert.is(displayMoney(m('-0.005'), 'EUR'), '-€0.01')
  assert.is(displayMoney(m('1000000'), 'USD'), '$1,000,000.00')
  assert.is(displayMoney(m('3.5'), 'CHF'), 'CHF 3.50')
  assert.is(displayMoney(ZERO, null), '£0.00')
  assert.is(displayDuration(3725), '1:02:05')
  assert.is(displayDuration(59), '0:59')
})

test('bill-to: billToName, else the company, else title and names; then department, address, postcode', () => {
  const c = { billToDepartment: 'Accounts', address1: '1 High St', address3: 'Leeds', postcode: 'LS1 1AA' }
  assert.equal(build(sources({ customer: { ...c, billToName: 'Ada Ltd (billing)', companyName: 'Ada Ltd' } })).billTo, ['Ada Ltd (billing)', 'Accounts', '1 High St', 'Leeds', 'LS1 1AA'])
  assert.is(build(sources({ customer: { companyName: 'Ada Ltd' } })).billTo[0], 'Ada Ltd')
  assert.is(build(sources()).billTo[0], 'Dr Ada Lovelace')
})

test('pages: the short or long list in billPages order; empty means all; bad pages refused', () => {
  assert.equal(pagesOf({ shortBillPages: ['Payments', 'Summary'], longBillPages: [] }, 'short'), ['Summary', 'Payments'])
  assert.equal(pagesOf({ shortBillPages: ['Summary'], longBillPages: [] }, 'long'), [...billPages])
  assert.is(parseBillLength(undefined), 'long')
  for (const bad of ['', 'Short', 'all', 1]) {
    try {
      parseBillLength(bad)
      assert.unreachable()
    } catch (e) {
      assert.ok(isBillingError(e) && e.code === 'invalid_query')
    }
  }
  const doc = build(sources({ customer: { shortBillPages: ['Calls by Type', 'Summary'] } }), 'short')
  assert.equal(doc.sections.map((s) => s.page), ['Summary', 'Calls by Type'])
})

test("a number's own page list limits its part of the charges and calls pages", () => {
  const numbers = [{ id: 'n1', number: '020 7946 0018', description: null, displayWith: null, shortBillPages: ['Charges'], longBillPages: [] }]
  const short = build(sources({ numbers, customer: { shortBillPages: [] } }), 'short')
  const page = (name: string) => short.sections.find((s) => s.page === name)!
  assert.is(page('Charges').tables.length, 1)
  assert.equal(page('Itemised Calls').tables, [])
  assert.equal(page('Calls by Number').tables, [])
  assert.is(page('Calls by Type').note, 'No calls on this invoice.')
  const long = build(sources({ numbers }), 'long')
  assert.is(long.sections.find((s) => s.page === 'Itemised Calls')!.tables[0].rows.length, 1)
  const shows = numberShows(new Map(numbers.map((n) => [n.id, n])) as any, 'short')
  assert.ok(shows(null, 'Itemised Calls'), 'lines of no number always show')
})

test('lines: feature description else type; charges by number, services by service; calls itemised', () => {
  const doc = build(sources())
  const page = (name: string) => doc.sections.find((s) => s.page === name)!
  assert.equal(page('Charges').tables.map((t) => [t.caption, t.rows.map((r) => r.cells)]), [['020 7946 0018', [['Line Rental', '1 Jan 2026 – 31 Jan 2026', '£10.00']]]])
  assert.equal(page('Services').tables.map((t) => [t.caption, t.rows.map((r) => r.cells[0])]), [['Office fibre', ['Fibre install']]])
  assert.equal(page('Itemised Calls').tables[0].rows[0].cells, ['14 Jan 2026', '10:05:00', '07700 900123', 'Mobile', '2:00', '£1.25'])
  assert.equal(page('Calls by Number').tables[0].rows[0].cells, ['020 7946 0018', '', '1', '2:00', '£1.25'])
  assert.equal(page('Summary').tables[0].footer!.cells, ['Total', '£61.25', '£2.25', '£63.50'])
})

test('the message: the name\'s text from the presets map; a name without text prints as itself', () => {
  const presets = mergePresets({ invoiceMessages: { 'Spring offer': 'Half price calls in April.' }, extend: { invoiceMessages: ['Plain name'] } })
  assert.ok(presets.lists.invoiceMessages.includes('Spring offer'), "the map's names are the list's")
  assert.is(build(sources({ invoice: { invoiceMessage: 'Spring offer' } }), 'long', presets).message, 'Half price calls in April.')
  assert.is(build(sources({ invoice: { invoiceMessage: 'Plain name' } }), 'long', presets).message, 'Plain name')
  assert.is(build(sources()).message, null)
})

test('property: VAT by rate adds up to the invoice; every line shows on exactly one page', () => {
  const amount = fc.integer({ min: -500_000, max: 5_000_000 }).map((n) => fromUnits(BigInt(n) * 100n))
  const line = fc.record({ amount, rate: fc.constantFrom('Standard 20%', 'Zero Rated', null), kind: fc.constantFrom('Recurring Charge', 'Call Charges', 'Credit Note'), service: fc.boolean() })
  fc.assert(
    fc.property(fc.array(line, { maxLength: 25 }), (lines) => {
      const transactions = lines.map((l, i) => ({
        id: String(i + 1),
        transactionType: l.kind,
        featureID: null,
        numberID: l.kind === 'Call Charges' ? 'n1' : null,
        serviceID: l.service && l.kind !== 'Call Charges' ? 's1' : null,
        amount: l.amount,
        VATAmount: l.rate === 'Standard 20%' ? ((l.amount / 5n) as Money) : ZERO,
        VATRate: l.rate,
        transactionDate: '2026-01-31',
      }))
      const doc = build(sources({ transactions, calls: [] }))
      const money = (xs: Money[]) => displayMoney(sum(xs), 'GBP')
      const read = (text: string) => parseMoney(text.replace(/[£,]/g, ''))!
      const column = (i: number) => money(doc.vatByRate.rows.map((r) => read(r.cells[i])))
      assert.equal([column(1), column(2)], doc.vatByRate.footer!.cells.slice(1), 'the rates add up to the totals')
      assert.equal(doc.vatByRate.footer!.cells.slice(1), [money(transactions.map((t) => t.amount)), money(transactions.map((t) => t.VATAmount))])
      const shown = doc.sections.filter((s) => s.page === 'Charges' || s.page === 'Services').flatMap((s) => s.tables.flatMap((t) => t.rows)).length
      assert.is(shown, transactions.filter((t) => t.transactionType !== 'Call Charges').length)
    }),
    { numRuns: 200 },
  )
})

test.run()
