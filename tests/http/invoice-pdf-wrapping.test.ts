import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mergePresets } from '../../core/presets/presets.js'
import { BASE, openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/** A seller whose address does not fit one line of the sheet. */
const seller = {
  name: 'Northern Communications Group Holdings Limited',
  address: ['Unit 14, Riverside Business Park', 'Waterfront Industrial Estate', 'Salford Quays', 'Greater Manchester'],
  postcode: 'M50 3AB',
  country: 'United Kingdom',
  VATNumber: 'GB123456789',
  companyNumber: '01234567',
  email: 'accounts.receivable@northern-communications.co.uk',
  phone: '+44 161 496 0000',
}
const customer = {
  companyName: 'Worldwide Telecommunication Services and Solutions Limited',
  billToDepartment: 'Accounts Payable Department, Finance and Procurement Shared Services',
  address1: 'Building 7, The Technology Innovation Centre',
  address2: 'Queen Elizabeth Olympic Park Road',
  postcode: 'E20 2ST',
  customerReference: 'PROCUREMENT-FRAMEWORK-2026-CONTRACT-00042',
  purchaseOrderNumber: 'PO-2026-0000123456789',
}
const description = 'Professional services rendered in January including on-site engineering visits, configuration and acceptance testing'

/** The text the document must show whole: the seller, the bill-to block, the references (contract 10.5, 14.1). */
const required = [
  seller.name,
  'Unit 14, Riverside Business Park, Waterfront Industrial Estate, Salford Quays, Greater Manchester, M50 3AB, United Kingdom',
  seller.email,
  customer.companyName,
  customer.billToDepartment,
  customer.address1,
  customer.address2,
  customer.customerReference,
  customer.purchaseOrderNumber,
]

/**
 * The first sheet's text as two columns (left of `split` points, and the rest), each read top to
 * bottom and left to right, and the whole document's text. Text wrapped onto several lines reads
 * on in its column, so a string shown whole is found there once spaces are ignored.
 */
async function sheetText(bytes: Uint8Array, split = 297) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise
  let all = ''
  let first: { text: string; x: number; top: number }[] = []
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n)
    const items = (await page.getTextContent()).items.flatMap((i) => ('str' in i && i.str.trim() ? [{ text: i.str, x: i.transform[4], top: page.view[3] - i.transform[5] }] : []))
    all += items.map((i) => i.text).join('\n')
    if (n === 1) first = items
  }
  await pdf.destroy()
  const column = (left: boolean) =>
    first
      .filter((i) => (i.x < split) === left)
      .sort((a, b) => a.top - b.top || a.x - b.x)
      .map((i) => i.text)
      .join('')
      .replace(/\s+/g, '')
  return { left: column(true), right: column(false), all, first }
}

/** Every sheet's text items: where each sits from the sheet's top (its baseline), and the sheet's height. */
async function sheetItems(bytes: Uint8Array) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise
  const sheets: { height: number; items: { text: string; x: number; top: number }[] }[] = []
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n)
    const items = (await page.getTextContent()).items.flatMap((i) => ('str' in i && i.str.trim() ? [{ text: i.str, x: i.transform[4], top: page.view[3] - i.transform[5] }] : []))
    sheets.push({ height: page.view[3], items })
  }
  await pdf.destroy()
  return sheets
}

/**
 * A table row taller than a sheet (a description near the 10,000 characters a Text field allows)
 * is cut to what one sheet's body holds, so pdfkit never flows it over further pages by itself:
 * every line stays within the body's margins (40 pt from the top, 52 from the bottom, the footer
 * below), each sheet the table goes on to says so, and a row's amount sits beside its description.
 */
function assertLongRowsFit(sheets: Awaited<ReturnType<typeof sheetItems>>, what: string) {
  sheets.forEach(({ height, items }, n) => {
    for (const item of items) {
      if (/Page \d+ of \d+/.test(item.text)) continue
      assert.ok(item.top >= 40 && item.top <= height - 52, `${what}, sheet ${n + 1}: "${item.text.slice(0, 30)}" at ${item.top.toFixed(1)} within the body`)
    }
    if (n > 0 && items.some((i) => /word\d/.test(i.text))) {
      assert.ok(items.some((i) => i.text.includes('(continued)')), `${what}, sheet ${n + 1}: the table's continued heading`)
    }
  })
  for (const k of [0, 1]) {
    const n = sheets.findIndex((s) => s.items.some((i) => i.text.startsWith(`#${k} word0`)))
    assert.ok(n >= 0, `${what}: row #${k} drawn`)
    const start = sheets[n].items.find((i) => i.text.startsWith(`#${k} word0`))!
    assert.ok(sheets[n].items.some((i) => i.text === '£10.00' && Math.abs(i.top - start.top) < 3), `${what}: row #${k}'s amount beside its description on sheet ${n + 1}`)
  }
  assert.ok(sheets.some((s) => s.items.some((i) => i.text.endsWith('…'))), `${what}: the long description cut with an ellipsis`)
}

const squeeze = (text: string) => text.replace(/\s+/g, '')

function assertWhole(doc: Awaited<ReturnType<typeof sheetText>>, what: string) {
  assert.not.match(doc.all, '…', `${what}: nothing cut with an ellipsis`)
  for (const text of required) assert.ok(doc.left.includes(squeeze(text)) || doc.right.includes(squeeze(text)), `${what} shows "${text}" whole`)
  // The wrapped reference pushes the purchase order down rather than overlapping it.
  assert.ok(doc.right.includes(squeeze(`Your reference ${customer.customerReference} Purchase order ${customer.purchaseOrderNumber}`)), `${what}: details in order`)
  // The bill-to block starts in the envelope's window (50 mm from the top), below the seller.
  const name = doc.first.find((i) => i.text.startsWith('Worldwide'))!
  assert.ok(name.top > 140 && name.top < 170, `${what}: the bill-to name in the window (${name.top})`)
  const sellerLast = Math.max(...doc.first.filter((i) => i.text.includes('northern-communications')).map((i) => i.top))
  const billTo = doc.first.find((i) => i.text.trim() === 'Bill to')!
  assert.ok(sellerLast < billTo.top, `${what}: the seller ends above the bill-to block (${sellerLast} < ${billTo.top})`)
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`PDF documents show names, addresses and references whole [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z', presets: mergePresets({ seller }) })
  })
  test.after.each(async (ctx) => ctx.h.close())

  const pdfOf = async (h: Harness, path: string) => {
    const res = await h.platform.app.request(`${BASE}${path}`, { headers: { authorization: `Bearer ${h.keys.admin}`, accept: 'application/pdf' } })
    assert.is(res.status, 200, path)
    return new Uint8Array(await res.arrayBuffer())
  }

  test('invoice, credit note and print file: long ones wrap, none is cut; a long description wraps too', async ({ h }) => {
    const c = await h.request('POST', '/customers', { accountNumber: 'W-1', postBillType: 'PDF', ...customer })
    assert.is(c.status, 201, JSON.stringify(c.body))
    const t = await h.request('POST', `/customers/${c.body.id}/transactions`, { transactionType: 'Debit Note', amount: '10.00', transactionDate: '2026-01-20', description })
    assert.is(t.status, 201, JSON.stringify(t.body))
    const run = (await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })).body
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    const [invoice] = (await h.request('GET', `/customers/${c.body.id}/invoices`)).body as any[]

    const doc = await sheetText(await pdfOf(h, `/invoices/${invoice.id}`))
    assertWhole(doc, 'the invoice')
    assert.ok(squeeze(doc.all).includes(squeeze(description)), 'the line item description whole')
    assertWhole(await sheetText(await pdfOf(h, `/billingRuns/${run.id}/print`)), 'the print file')
    const note = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'Goodwill', amount: '5.00' })
    assert.is(note.status, 201, JSON.stringify(note.body))
    assertWhole(await sheetText(await pdfOf(h, `/creditNotes/${note.body.id}`)), 'the credit note')
  })

  test('a row taller than a sheet is cut to one sheet, drawn within its margins beside its amount', async ({ h }) => {
    const c = await h.request('POST', '/customers', { accountNumber: 'W-2', postBillType: 'PDF', ...customer })
    assert.is(c.status, 201, JSON.stringify(c.body))
    const long = Array.from({ length: 1400 }, (_, i) => `word${i}`).join(' ').slice(0, 9990)
    for (const k of [0, 1]) {
      const t = await h.request('POST', `/customers/${c.body.id}/transactions`, { transactionType: 'Debit Note', amount: '10.00', transactionDate: `2026-01-2${k}`, description: `#${k} ${long}` })
      assert.is(t.status, 201, JSON.stringify(t.body))
    }
    const run = (await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })).body
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    const [invoice] = (await h.request('GET', `/customers/${c.body.id}/invoices`)).body as any[]
    assertLongRowsFit(await sheetItems(await pdfOf(h, `/invoices/${invoice.id}`)), 'the invoice')
    assertLongRowsFit(await sheetItems(await pdfOf(h, `/billingRuns/${run.id}/print`)), 'the print file')
  })

  test.run()
}
