import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { getDocument, invoiceAmounts, pounds, worldOn } from '../support/invoice-documents.js'
import type { World } from '../support/invoice-world.js'
import { isPdf, pdfLines, pdfSheetSizes } from '../support/pdf-text.js'
import { activeTargets } from '../support/targets.js'

const utf8 = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8')

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; world: World }>(`invoice documents: PDF and HTML by Accept [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-10T09:00:00Z' })
    ctx.world = await worldOn(ctx.h, { numbers: 4, calls: 40, payment: '100.00', customer: { defaultInvoiceMessage: 'Thank you for your business' } })
  })
  test.after(async (ctx) => ctx.h.close())

  test('JSON stays the default; Accept picks the PDF or the HTML page; Vary says so', async ({ h, world }) => {
    const id = world.invoice.id
    for (const accept of ['', '*/*', 'application/json', 'image/png']) {
      const r = await getDocument(h, id, accept)
      assert.is(r.status, 200)
      assert.match(r.type, /^application\/json/, `Accept "${accept}" answers JSON`)
      assert.is(JSON.parse(utf8(r.bytes)).id, id)
    }
    const pdf = await getDocument(h, id, 'application/pdf')
    assert.equal([pdf.status, pdf.type, isPdf(pdf.bytes)], [200, 'application/pdf', true])
    assert.match(pdf.headers.get('vary') ?? '', /Accept/)
    const html = await getDocument(h, id, 'text/html,application/xhtml+xml,*/*;q=0.8')
    assert.equal([html.status, html.type], [200, 'text/html; charset=utf-8'])
    assert.match(utf8(html.bytes), /^<!doctype html>/)
    assert.not.match(utf8(html.bytes), /(src|href)=["']?https?:|@import|url\(/i, 'no external request')
    const json = await getDocument(h, id, 'application/json;q=0.5, application/pdf;q=0.9')
    assert.is(json.type, 'application/pdf', 'q-values are honoured')
  })

  test('the PDF holds every amount and total of the JSON invoice, with an embedded font', async ({ h, world }) => {
    const pdf = await getDocument(h, world.invoice.id, 'application/pdf')
    const text = (await pdfLines(pdf.bytes)).flat().join('\n')
    for (const [field, amount] of Object.entries(invoiceAmounts(world.invoice))) {
      assert.ok(text.includes(pounds(amount)), `${field} ${pounds(amount)} is printed`)
    }
    const lines = (await h.request('GET', `/customers/${world.customerID}/transactions?limit=1000`)).body as any[]
    const onIt = lines.filter((t) => t.invoiceID === world.invoice.id)
    assert.is(onIt.length, world.invoice.transactionIDs.length)
    for (const t of onIt) assert.ok(text.includes(pounds(t.amount)), `${t.transactionType} ${pounds(t.amount)} is printed`)
    for (const expected of ['Northwind Trading Ltd', 'Accounts Payable', 'M3 4LZ', 'NWT-ACCTS-7', 'PO-2026-0142', 'GB 123 4567 89', 'Thank you for your business.']) {
      assert.ok(text.includes(expected), `${expected} is printed`)
    }
    const raw = Buffer.from(pdf.bytes).toString('latin1')
    assert.match(raw, /\/FontFile2/, 'the TrueType font is embedded')
    assert.match(raw, /DejaVuSans/)
  })

  test('?pages picks the short or long page list; a number\'s own list limits its part; bad pages → 400103', async ({ h, world }) => {
    const c = world.customerID
    const [first, second] = world.numberIDs
    await h.request('PATCH', `/customers/${c}`, { shortBillPages: ['Summary', 'Calls by Number'], longBillPages: [] })
    await h.request('PATCH', `/numbers/${second}`, { longBillPages: ['Charges'] })
    const headings = async (query: string) => {
      const html = utf8((await getDocument(h, world.invoice.id, 'text/html', query)).bytes)
      return [...html.matchAll(/data-page="([^"]+)"/g)].map((m) => m[1])
    }
    assert.equal(await headings('?pages=short'), ['Summary', 'Calls by Number'])
    const all = ['Summary', 'Charges', 'Services', 'Calls by Number', 'Calls by Type', 'Itemised Calls', 'Payments']
    assert.equal(await headings('?pages=long'), all, 'an empty list means every page')
    assert.equal(await headings(''), all, 'long by default')
    const numbers = (await h.request('GET', `/customers/${c}/numbers`)).body as any[]
    const number = (id: string) => numbers.find((n) => n.id === id).number
    const long = (await pdfLines((await getDocument(h, world.invoice.id, 'application/pdf')).bytes)).flat()
    const itemised = long.slice(long.indexOf('Itemised Calls'))
    assert.ok(itemised.includes(number(first)), 'the first number has no list: all its pages')
    assert.not.ok(itemised.includes(number(second)), 'the second number\'s calls are not itemised: its long list is Charges only')
    for (const bad of ['?pages=medium', '?pages=', '?pages=short&pages=long', '?page=short']) {
      for (const accept of ['application/pdf', 'application/json']) {
        const r = await h.request('GET', `/invoices/${world.invoice.id}${bad}`, undefined, { headers: { accept } })
        assert.equal([r.status, r.body?.error_code], [400, 400103], `${bad} with ${accept}`)
        assert.ok(r.body.hint.length > 0)
      }
    }
    const missing = await h.request('GET', '/invoices/999999?pages=short', undefined, { headers: { accept: 'application/pdf' } })
    assert.equal([missing.status, missing.body.error_code], [404, 404001])
    await h.request('PATCH', `/customers/${c}`, { shortBillPages: [], longBillPages: [] })
    await h.request('PATCH', `/numbers/${second}`, { longBillPages: [] })
  })

  test('billStyle changes the layout, not the content', async ({ h, world }) => {
    const texts: string[] = []
    const styles = ['Standard', 'Detailed', 'Summary', 'Corporate']
    for (const billStyle of styles) {
      await h.request('PATCH', `/customers/${world.customerID}`, { billStyle })
      const html = utf8((await getDocument(h, world.invoice.id, 'text/html')).bytes)
      assert.match(html, new RegExp(`data-style="${billStyle}"`))
      texts.push(html.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '))
      const pdf = await pdfLines((await getDocument(h, world.invoice.id, 'application/pdf')).bytes)
      const calls = pdf.flat().filter((l) => /^\d{1,2} Jan 2026 \d\d:\d\d:\d\d /.test(l))
      assert.is(calls.length, 40, `${billStyle}: every call itemised`)
    }
    assert.ok(texts.every((t) => t === texts[0]), 'the same text in every style')
    await h.request('PATCH', `/customers/${world.customerID}`, { billStyle: null })
  })

  test('billFormatOverride Landscape: A4 landscape sheets and a landscape print rule, the same content', async ({ h, world }) => {
    const c = world.customerID
    const text = (html: string) => html.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
    const portrait = utf8((await getDocument(h, world.invoice.id, 'text/html')).bytes)
    assert.not.match(portrait, /@page/)
    assert.ok((await pdfSheetSizes((await getDocument(h, world.invoice.id, 'application/pdf')).bytes)).every((s) => s.height > s.width), 'unset: portrait')
    assert.is((await h.request('PATCH', `/customers/${c}`, { billFormatOverride: 'Landscape' })).status, 200)
    const html = utf8((await getDocument(h, world.invoice.id, 'text/html')).bytes)
    assert.match(html, /@page\s*\{\s*size:\s*A4 landscape\s*\}/)
    assert.is(text(html), text(portrait), 'the same text')
    const pdf = (await getDocument(h, world.invoice.id, 'application/pdf')).bytes
    const sizes = await pdfSheetSizes(pdf)
    assert.ok(sizes.every((s) => s.width === 842 && s.height === 595), `every sheet A4 landscape: ${JSON.stringify(sizes)}`)
    const lines = (await pdfLines(pdf)).flat()
    assert.is(lines.filter((l) => /^\d{1,2} Jan 2026 \d\d:\d\d:\d\d /.test(l)).length, 40, 'every call itemised')
    for (const amount of Object.values(invoiceAmounts(world.invoice))) assert.ok(lines.join('\n').includes(pounds(amount)))
    assert.ok(lines.includes('Northwind Trading Ltd'), 'the bill-to block')
    await h.request('PATCH', `/customers/${c}`, { billFormatOverride: null })
  })

  test('billFormatOverride Itemised by Site and Cost Centre: group headings and subtotals in the HTML and the PDF', async ({ h, world }) => {
    const c = world.customerID
    const [n1, n2, n3] = world.numberIDs
    const [service] = (await h.request('GET', `/customers/${c}/services`)).body as any[]
    const pence = (text: string) => Math.round(Number(text.replace(/[£,]/g, '')) * 100)
    const pageOf = (html: string, page: string) => html.match(new RegExp(`<section class="bill-page[^"]*" data-page="${page}">([\\s\\S]*?)</section>`))![1]
    const groupsOf = (html: string, page: string) => [...pageOf(html, page).matchAll(/<h3>([^<]+)<\/h3>/g)].map((m) => m[1])
    const footers = (html: string, page: string, key: string) =>
      [...pageOf(html, page).matchAll(new RegExp(`<tr data-key="${key}"><th>([^<]*)</th><th class="num">([^<]*)</th><th class="num">([^<]*)</th></tr>`, 'g'))].map((m) => m.slice(1))
    const lines = ((await h.request('GET', `/customers/${c}/transactions?limit=1000`)).body as any[]).filter((t) => t.invoiceID === world.invoice.id)
    const charges = lines.filter((t) => t.transactionType !== 'Call Charges' && !t.serviceID).reduce((total, t) => total + Math.round(t.amount * 100), 0)
    const documents = async () => ({
      html: utf8((await getDocument(h, world.invoice.id, 'text/html')).bytes),
      pdf: (await pdfLines((await getDocument(h, world.invoice.id, 'application/pdf')).bytes)).flat(),
    })

    for (const [id, site] of [[n1, 'Manchester'], [n2, 'Manchester'], [n3, 'Leeds']]) assert.is((await h.request('PATCH', `/numbers/${id}`, { site })).status, 200)
    await h.request('PATCH', `/services/${service.id}`, { site: 'Salford' })
    await h.request('PATCH', `/customers/${c}`, { billFormatOverride: 'Itemised by Site' })
    let { html, pdf } = await documents()
    assert.equal(groupsOf(html, 'Itemised Calls'), ['Site Leeds', 'Site Manchester', 'No site'], 'the fourth number has no site')
    assert.equal(groupsOf(html, 'Charges'), ['Site Leeds', 'Site Manchester', 'No site'], 'the account\'s support charge has no site')
    assert.equal(groupsOf(html, 'Services'), ['Site Salford'])
    assert.equal(groupsOf(html, 'Calls by Number'), [])
    const itemised = footers(html, 'Itemised Calls', 'group-subtotal')
    assert.equal(itemised.map((f) => f[0]), ['Site Leeds subtotal', 'Site Manchester subtotal', 'No site subtotal'])
    assert.equal(itemised.map((f) => f[1]), ['10 calls', '20 calls', '10 calls'])
    assert.equal(footers(html, 'Itemised Calls', 'page-total').map((f) => f[1]), ['40 calls'])
    const bySite = footers(html, 'Charges', 'group-subtotal').map((f) => pence(f[2]))
    assert.is(bySite.reduce((a, b) => a + b, 0), charges, 'the site subtotals add up to the charges')
    assert.equal(footers(html, 'Charges', 'page-total').map((f) => pence(f[2])), [charges])
    for (const line of ['Site Leeds', 'Site Manchester', 'No site', 'Site Salford']) assert.ok(pdf.includes(line), `the PDF heads a group ${line}`)
    assert.ok(pdf.some((l) => /^Site Manchester subtotal 20 calls £[\d,]+\.\d\d$/.test(l)), 'the PDF has the group subtotal')

    await h.request('PATCH', `/customers/${c}`, { billFormatOverride: 'Cost Centre' })
    ;({ html, pdf } = await documents())
    for (const page of ['Charges', 'Calls by Number', 'Itemised Calls']) {
      const expected = page === 'Charges' ? ['Cost centre Head office', 'Cost centre Warehouse', 'Unassigned'] : ['Cost centre Head office', 'Cost centre Warehouse']
      assert.equal(groupsOf(html, page), expected, page)
    }
    assert.equal(groupsOf(html, 'Services'), [])
    assert.equal(footers(html, 'Calls by Number', 'group-subtotal').map((f) => f[1]), ['20 calls', '20 calls'])
    assert.is(footers(html, 'Charges', 'group-subtotal').reduce((total, f) => total + pence(f[2]), 0), charges)
    for (const line of ['Cost centre Head office', 'Cost centre Warehouse', 'Unassigned']) assert.ok(pdf.includes(line), `the PDF heads a group ${line}`)

    await h.request('PATCH', `/customers/${c}`, { billFormatOverride: null })
    for (const id of [n1, n2, n3]) await h.request('PATCH', `/numbers/${id}`, { site: null })
    await h.request('PATCH', `/services/${service.id}`, { site: null })
    assert.not.match(utf8((await getDocument(h, world.invoice.id, 'text/html')).bytes), /<h3>/, 'unset: no groups')
  })

  test('presets list the page lists, styles and messages; OpenAPI documents the PDF, the HTML and ?pages', async ({ h }) => {
    const customers = (await h.request('GET', '/presets/customers')).body
    assert.equal(customers.billStyle, ['Standard', 'Detailed', 'Summary', 'Corporate'])
    assert.equal(customers.shortBillPages, ['Summary', 'Charges', 'Services', 'Calls by Number', 'Calls by Type', 'Itemised Calls', 'Payments'])
    assert.equal(customers.longBillPages, customers.shortBillPages)
    assert.ok(customers.nextInvoiceMessage.includes('Thank you for your business'))
    assert.equal(customers.defaultInvoiceMessage, customers.nextInvoiceMessage)
    assert.equal((await h.request('GET', '/presets/numbers')).body.longBillPages, customers.longBillPages)
    assert.equal((await h.request('GET', '/presets/invoices')).body.invoiceMessage, customers.nextInvoiceMessage)
    const doc = (await h.request('GET', '/openapi.json', undefined, { key: null })).body
    const get = doc.paths['/backend/api/v1/invoices/{id}'].get
    assert.ok(get.responses['200'].content['application/json'])
    assert.equal(get.responses['200'].content['application/pdf'].schema.format, 'binary')
    assert.is(get.responses['200'].content['text/html'].schema.type, 'string')
    assert.equal(get.parameters.find((p: any) => p.name === 'pages').schema.enum, ['short', 'long'])
    const schemas = doc.components.schemas
    const customer = schemas.Customer.properties
    assert.ok(JSON.stringify(customer.billStyle).includes('Corporate'))
    assert.ok(JSON.stringify(customer.longBillPages).includes('Payments'))
    assert.ok(JSON.stringify(customer.nextInvoiceMessage).includes('Direct Debit reminder'))
    assert.ok(schemas.Invoice.properties.invoiceMessage, 'the invoice shows its message name')
  })

  test.run()
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`invoice documents: messages and a 1,000-call invoice [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-10T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('a next message prints on one invoice only, then the default; names map to text', async ({ h }) => {
    const world = await worldOn(h, { numbers: 1, calls: 0, customer: { nextInvoiceMessage: 'Price change notice', defaultInvoiceMessage: 'Holiday opening hours' } })
    const c = world.customerID
    assert.is(world.invoice.invoiceMessage, 'Price change notice')
    const customer = (await h.request('GET', `/customers/${c}`)).body
    assert.equal([customer.nextInvoiceMessage, customer.defaultInvoiceMessage], [null, 'Holiday opening hours'], 'cleared once raised')
    const history = (await h.request('GET', `/customers/${c}/history`)).body as any[]
    assert.ok(history.some((e) => JSON.stringify(e.changes?.nextInvoiceMessage) === '["Price change notice",null]'), 'the clearing is in history')
    const first = utf8((await getDocument(h, world.invoice.id, 'text/html')).bytes)
    assert.match(first, /Our prices change from 1 April/)
    assert.not.match(first, /support lines close/)
    const run = await h.request('POST', '/billingRuns', { name: 'February', cutoffDate: '2026-02-28', invoiceDate: '2026-02-28', status: 'Requested' })
    assert.is(run.status, 201)
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    const invoices = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    assert.equal(invoices.map((i) => i.invoiceMessage), ['Price change notice', 'Holiday opening hours'])
    const second = utf8((await getDocument(h, invoices[1].id, 'text/html')).bytes)
    assert.not.match(second, /Our prices change from 1 April/, 'the next message is on one invoice only')
    assert.match(second, /support lines close/)
    assert.match(utf8((await getDocument(h, world.invoice.id, 'text/html')).bytes), /Our prices change/, 'the first invoice keeps its message')
  })

  test('1,000 calls over 20 numbers paginate: whole rows on every sheet, each call once', async ({ h }) => {
    const world = await worldOn(h, { numbers: 20, calls: 1000, customer: { longBillPages: ['Summary', 'Itemised Calls'] } })
    const pdf = await getDocument(h, world.invoice.id, 'application/pdf')
    const sheets = await pdfLines(pdf.bytes)
    assert.ok(sheets.length >= 20, `${sheets.length} sheets`)
    const row = /^(\d{1,2}) Jan 2026 (\d\d):(\d\d):(\d\d) (\S.*\S) (National|Mobile|International|Non-Geographic) (\d+:\d\d) (-?£[\d,]+\.\d\d)$/
    const dateStart = /^\d{1,2} Jan 2026 \d\d:/
    let count = 0
    sheets.forEach((lines, i) => {
      const rows = lines.filter((l) => dateStart.test(l))
      for (const l of rows) assert.match(l, row, `sheet ${i + 1}: a whole call line`)
      assert.not.ok(lines.some((l) => l.includes('…')), `sheet ${i + 1}: nothing cut short`)
      count += rows.length
      assert.match(lines.at(-1)!, new RegExp(`Page ${i + 1} of ${sheets.length}$`), 'each sheet ends with its footer')
    })
    assert.is(count, 1000, 'every call exactly once')
    const text = sheets.flat().join('\n')
    assert.ok(text.includes('50 calls'), 'each number has its subtotal')
    assert.ok(text.includes(pounds(world.invoice.totalAmount)))
  })

  test.run()
}
