import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { billFormatOf } from '../../core/documents/bill-format.js'
import { numberShows, pagesOf, parseBillLength } from '../../core/documents/bill-pages.js'
import { displayDuration, displayMoney } from '../../core/documents/display.js'
import { buildInvoiceDocument } from '../../core/documents/invoice-document.js'
import type { InvoiceSources } from '../../core/documents/invoice-sources.js'
import { isBillingError } from '../../core/errors.js'
import { add, fromUnits, parseMoney, sum, ZERO, type Money } from '../../core/money/money.js'
import { buildCreditNoteDocument } from '../../core/documents/credit-note-document.js'
import type { DocumentSection } from '../../core/documents/document-model.js'
import { billPages } from '../../core/presets/engine-lists.js'
import { defaultPresets, mergePresets } from '../../core/presets/presets.js'

const test = suite('core: invoice document model')
const m = (s: string) => parseMoney(s)!

function sources(over: Partial<{ customer: any; transactions: any[]; numbers: any[]; calls: any[]; invoice: any; features: any[]; services: any[] }> = {}): InvoiceSources {
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
    features: over.features ?? [
      { id: 'f1', description: null, featureType: 'Line Rental' },
      { id: 'f2', description: 'Fibre install', featureType: 'Installation' },
    ],
    numbers: over.numbers ?? [{ id: 'n1', number: '020 7946 0018', description: null, displayWith: null, shortBillPages: [], longBillPages: [] }],
    services: over.services ?? [{ id: 's1', serviceName: 'Office fibre', serviceType: 'FTTP', description: null }],
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

/** An invoice over three sites and two cost centres: numbers, features and a service with and without a `site`. */
function sitedSources(customer: Record<string, unknown>): InvoiceSources {
  const line = (id: string, featureID: string, numberID: string | null, serviceID: string | null, amount: string) => ({
    id, transactionType: 'Recurring Charge', featureID, numberID, serviceID, amount: m(amount), VATAmount: ZERO, VATRate: 'Zero Rated', transactionDate: '2026-01-31',
  })
  const calls = (n: number, numberID: string, transactionID: string, cost: string) =>
    Array.from({ length: n }, (_, i) => ({ id: `${numberID}-${i}`, numberID, transactionID, startTime: `2026-01-1${i}T10:00:00.000Z`, dialledNumber: '07700 900123', callType: 'mobile', chargeBand: 'MOB', durationSeconds: 60, ratedDuration: 60, cost: m(cost) }))
  const callList = [...calls(3, 'n1', 't-c1', '0.3333'), ...calls(2, 'n2', 't-c2', '1.0001'), ...calls(1, 'n3', 't-c3', '0.5')]
  const charged = (id: string, numberID: string) => ({ id, transactionType: 'Call Charges', featureID: null, numberID, serviceID: null, VATAmount: ZERO, VATRate: 'Zero Rated',
    amount: sum(callList.filter((c) => c.numberID === numberID).map((c) => c.cost)) })
  return sources({
    customer,
    numbers: [
      { id: 'n1', number: '0113 496 0001', description: null, displayWith: 'Head office', site: 'Leeds', shortBillPages: [], longBillPages: [] },
      { id: 'n2', number: '0113 496 0002', description: null, displayWith: 'Warehouse', site: 'Bradford', shortBillPages: [], longBillPages: [] },
      { id: 'n3', number: '0113 496 0003', description: null, displayWith: null, site: '  ', shortBillPages: [], longBillPages: [] },
    ],
    features: [
      { id: 'f1', description: 'Line rental', featureType: 'Line Rental', site: null },
      { id: 'f2', description: 'Line rental (annex)', featureType: 'Line Rental', site: 'Annex' },
      { id: 'f3', description: 'Support', featureType: 'Support', site: null },
      { id: 'f4', description: 'Fibre', featureType: 'FTTP', site: null },
      { id: 'f5', description: 'Static IP', featureType: 'Static IP', site: 'Bradford' },
    ],
    services: [{ id: 's1', serviceName: 'Office fibre', serviceType: 'FTTP', description: null, site: 'York' }],
    transactions: [
      line('1', 'f1', 'n1', null, '14.50'),
      line('2', 'f2', 'n1', null, '10.01'),
      line('3', 'f1', 'n2', null, '14.50'),
      line('4', 'f1', 'n3', null, '14.50'),
      line('5', 'f3', null, null, '45.00'),
      line('6', 'f4', null, 's1', '64.00'),
      line('7', 'f5', null, 's1', '5.00'),
      charged('t-c1', 'n1'),
      charged('t-c2', 'n2'),
      charged('t-c3', 'n3'),
    ],
    calls: callList,
  })
}

const headings = (section: DocumentSection) => section.grouping?.groups.map((g) => g.heading) ?? null
const subtotals = (section: DocumentSection) => section.grouping!.groups.map((g) => g.subtotal.footer!.cells)

test('billFormatOverride reads: the three known names; unset and unknown names lay out as today', () => {
  assert.equal(billFormatOf({ billFormatOverride: null }), { orientation: 'portrait', groupBy: null })
  assert.equal(billFormatOf({ billFormatOverride: 'Landscape' }), { orientation: 'landscape', groupBy: null })
  assert.equal(billFormatOf({ billFormatOverride: 'Itemised by Site' }), { orientation: 'portrait', groupBy: 'site' })
  assert.equal(billFormatOf({ billFormatOverride: 'Cost Centre' }), { orientation: 'portrait', groupBy: 'costCentre' })
  const plain = build(sitedSources({}))
  assert.is(plain.orientation, 'portrait')
  assert.ok(plain.sections.every((s) => !s.grouping), 'unset: no page is grouped')
  for (const name of ['Booklet', 'toString', 'landscape']) {
    assert.equal(build(sitedSources({ billFormatOverride: name })), plain, `${name} lays out as unset`)
  }
  const landscape = build(sitedSources({ billFormatOverride: 'Landscape' }))
  assert.equal({ ...landscape, orientation: 'portrait' }, plain, 'Landscape turns the sheets and changes nothing else')
  assert.is(landscape.orientation, 'landscape')
  const note = { creditNote: { id: '1', creditNoteNumber: 'CN-000001', date: '2026-02-01', reason: null, netAmount: ZERO, VATAmount: ZERO, totalAmount: ZERO }, invoice: { id: '7', invoiceNumber: 'INV-7', invoiceDate: '2026-01-31' }, lines: [] }
  assert.is(buildCreditNoteDocument({ ...note, customer: { billFormatOverride: 'Landscape' } } as any, defaultPresets).orientation, 'landscape', 'a credit note turns as its invoices do')
})

test('Itemised by Site: calls, charges and services under a heading per site, "No site" last, with counts and subtotals', () => {
  const doc = build(sitedSources({ billFormatOverride: 'Itemised by Site' }))
  const page = (name: string) => doc.sections.find((s) => s.page === name)!
  assert.equal(headings(page('Itemised Calls')), ['Site Bradford', 'Site Leeds', 'No site'], 'a call is at its number\'s site; a blank site is none')
  assert.equal(subtotals(page('Itemised Calls')), [
    ['Site Bradford subtotal', '2 calls', '£2.00'],
    ['Site Leeds subtotal', '3 calls', '£1.00'],
    ['No site subtotal', '1 call', '£0.50'],
  ])
  assert.equal(page('Itemised Calls').grouping!.total.footer!.cells, ['Total', '6 calls', '£3.50'])
  assert.equal(page('Itemised Calls').grouping!.groups[1].tables.map((t) => [t.caption, t.rows.length]), [['0113 496 0001', 3]], 'each group is the page as always: a table per number')
  // A feature's site first, else its number's, else its service's.
  assert.equal(headings(page('Charges')), ['Site Annex', 'Site Bradford', 'Site Leeds', 'No site'])
  assert.equal(page('Charges').grouping!.groups.map((g) => g.tables.flatMap((t) => t.rows.map((r) => r.cells[0]))), [['Line rental (annex)'], ['Line rental'], ['Line rental'], ['Support', 'Line rental']])
  assert.equal(page('Charges').grouping!.groups.at(-1)!.tables.map((t) => t.caption), ['Account charges', '0113 496 0003'])
  assert.equal(headings(page('Services')), ['Site Bradford', 'Site York'])
  assert.equal(subtotals(page('Services')), [['Site Bradford subtotal', '1 line', '£5.00'], ['Site York subtotal', '1 line', '£64.00']])
  assert.equal(page('Services').grouping!.total.footer!.cells, ['Total', '2 lines', '£69.00'])
  assert.is(headings(page('Calls by Number')), null, 'Calls by Number is not grouped by site')
  assert.equal(page('Summary').tables[0].footer!.cells, build(sitedSources({})).sections[0].tables[0].footer!.cells, 'the invoice\'s totals are unchanged')
})

test('Cost Centre: Charges, Calls by Number and Itemised Calls grouped by displayWith, "Unassigned" last', () => {
  const doc = build(sitedSources({ billFormatOverride: 'Cost Centre' }))
  const page = (name: string) => doc.sections.find((s) => s.page === name)!
  for (const name of ['Charges', 'Calls by Number', 'Itemised Calls']) {
    assert.equal(headings(page(name)), ['Cost centre Head office', 'Cost centre Warehouse', 'Unassigned'], name)
  }
  assert.equal(subtotals(page('Calls by Number')), [
    ['Cost centre Head office subtotal', '3 calls', '£1.00'],
    ['Cost centre Warehouse subtotal', '2 calls', '£2.00'],
    ['Unassigned subtotal', '1 call', '£0.50'],
  ])
  assert.equal(page('Calls by Number').grouping!.groups[0].tables.map((t) => t.caption), [null], 'the heading names the group once')
  assert.equal(subtotals(page('Charges')).map((c) => c[2]), ['£24.51', '£14.50', '£59.50'], 'account charges are unassigned')
  assert.is(headings(page('Services')), null, 'Services is not grouped by cost centre')
  assert.is(headings(page('Calls by Type')), null)
})

test('property: the group subtotals add up exactly to the page total and to what the page lists', () => {
  const amount = fc.integer({ min: -500_000, max: 5_000_000 }).map((n) => fromUnits(BigInt(n)))
  const site = fc.constantFrom('Leeds', 'York', 'Zeta', null)
  const item = fc.record({ amount, number: fc.constantFrom('n1', 'n2', 'n3', null), service: fc.boolean(), featureSite: site, call: fc.boolean() })
  const numberOf = fc.record({ site, displayWith: fc.constantFrom('Head office', 'Warehouse', null) })
  fc.assert(
    fc.property(fc.array(item, { maxLength: 30 }), fc.tuple(numberOf, numberOf, numberOf), site, fc.constantFrom('Itemised by Site', 'Cost Centre'), (items, ns, serviceSite, billFormatOverride) => {
      const numbers = ns.map((n, i) => ({ id: `n${i + 1}`, number: `0113 496 000${i + 1}`, description: null, shortBillPages: [], longBillPages: [], ...n }))
      const lines = items.filter((x) => !x.call)
      const transactions = lines.map((x, i) => ({
        id: String(i + 1), transactionType: 'Recurring Charge', featureID: `f${i + 1}`, numberID: x.number, serviceID: x.service ? 's1' : null, amount: x.amount, VATAmount: ZERO, VATRate: null, transactionDate: '2026-01-31',
      }))
      const calls = items.filter((x) => x.call && x.number).map((x, i) => ({
        id: `c${i}`, numberID: x.number, transactionID: `t-${x.number}`, startTime: '2026-01-14T10:05:00.000Z', dialledNumber: '07700 900123', callType: 'mobile', chargeBand: 'MOB', durationSeconds: 60, ratedDuration: 60, cost: x.amount,
      }))
      const charges = ['n1', 'n2', 'n3'].map((n) => ({ id: `t-${n}`, transactionType: 'Call Charges', featureID: null, numberID: n, serviceID: null, VATAmount: ZERO, VATRate: null,
        amount: sum(calls.filter((c) => c.numberID === n).map((c) => c.cost)) }))
      const s = sources({
        customer: { billFormatOverride }, numbers, calls, transactions: [...transactions, ...charges],
        features: lines.map((x, i) => ({ id: `f${i + 1}`, description: null, featureType: 'Line Rental', site: x.featureSite })),
        services: [{ id: 's1', serviceName: 'Office fibre', serviceType: 'FTTP', description: null, site: serviceSite }],
      })
      const listed: Record<string, Money> = {
        Charges: sum(transactions.filter((t) => !t.serviceID).map((t) => t.amount)),
        Services: sum(transactions.filter((t) => t.serviceID).map((t) => t.amount)),
        'Calls by Number': sum(charges.map((t) => t.amount)),
        'Itemised Calls': sum(calls.map((c) => c.cost)),
      }
      for (const section of build(s).sections) {
        if (!section.grouping) continue
        const { groups, amount } = section.grouping
        assert.is(sum(groups.map((g) => g.amount)), amount, `${section.page}: the groups add up to the page`)
        assert.is(amount, listed[section.page], `${section.page}: the page total is what it lists`)
        assert.is(section.grouping.total.footer!.cells[2], displayMoney(amount, 'GBP'))
        assert.equal(section.tables, groups.flatMap((g) => g.tables))
        assert.is(new Set(groups.map((g) => g.heading)).size, groups.length, 'one group per heading')
        assert.ok(['No site', 'Unassigned'].every((h) => !groups.slice(0, -1).some((g) => g.heading === h)), 'the fallback group is last')
      }
    }),
    { numRuns: 150 },
  )
})

test.run()
