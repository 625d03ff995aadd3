import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BASE, openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { worldOn } from '../support/invoice-documents.js'
import { pdfSheetSizes } from '../support/pdf-text.js'

/** Each page's text items with their position from the sheet's top-left, in points. */
async function pages(bytes: Uint8Array) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise
  const out: { text: string; x: number; top: number }[][] = []
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n)
    const height = page.view[3]
    const items = (await page.getTextContent()).items.flatMap((i) => ('str' in i && i.str.trim() ? [{ text: i.str.trim(), x: i.transform[4], top: height - i.transform[5] }] : []))
    out.push(items)
  }
  await pdf.destroy()
  return out
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`a billing run's print file [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('the invoices of customers with a post bill type, in account number order, each on a new sheet, the address in the window', async ({ h }) => {
    const make = (accountNumber: string, fields: Record<string, unknown>) => h.request('POST', '/customers', { accountNumber, emptyInvoiceAction: 'Send', companyName: `${accountNumber} Ltd`, address1: '1 High St', postcode: 'AB1 2CD', ...fields })
    await make('P-C', { postBillType: 'PDF' })
    await make('P-A', { postBillType: 'Summary Only' })
    await make('P-NONE', { postBillType: 'None' })
    await make('P-EMAIL', { email: 'x@example.com' })
    // A Landscape override (billFormatOverride) is for email and the portal: posted, the sheet is portrait for the window envelope.
    await make('P-B', { postBillType: 'PDF', billFormatOverride: 'Landscape' })
    const run = (await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })).body
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    const res = await h.platform.app.request(`${BASE}/billingRuns/${run.id}/print`, { headers: { authorization: `Bearer ${h.keys.admin}`, accept: 'application/pdf' } })
    assert.is(res.status, 200)
    assert.is(res.headers.get('content-type'), 'application/pdf')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const sheets = await pages(bytes)
    const sizes = await pdfSheetSizes(bytes)
    const firsts = sheets.map((items, i) => ({ i, name: items.find((t) => / Ltd$/.test(t.text) && t.text.startsWith('P-')) })).filter((s) => s.name)
    assert.equal(firsts.map((s) => s.name!.text), ['P-A Ltd', 'P-B Ltd', 'P-C Ltd'], 'account number order, posted customers only')
    for (const { i, name } of firsts) {
      assert.is(i % 2, 0, 'each invoice starts on the front of a new sheet')
      assert.ok(Math.abs(name!.x - 56.7) < 2, `address 20 mm from the left (${name!.x})`)
      assert.ok(name!.top > 140 && name!.top < 170, `address about 50 mm from the top, in the window (${name!.top})`)
      assert.ok(sheets[i].some((t) => t.text === 'Example Telecom Ltd'), 'the seller on each')
      assert.ok(sizes[i].width < sizes[i].height, `${name!.text}: portrait (${JSON.stringify(sizes[i])})`)
    }
    assert.is((await h.request('GET', '/billingRuns/999/print')).status, 404)
  })

  test('a posted invoice is the customer\'s copy: without GDPR/PECR consent no itemised calls, with it the calls', async ({ h }) => {
    const { customerID, invoice } = await worldOn(h, { numbers: 1, calls: 3, accountNumber: 'POST-GDPR', customer: { postBillType: 'PDF' } })
    const printed = async () => {
      const res = await h.platform.app.request(`${BASE}/billingRuns/${invoice.billingRunID}/print`, { headers: { authorization: `Bearer ${h.keys.admin}`, accept: 'application/pdf' } })
      assert.is(res.status, 200)
      return (await pages(new Uint8Array(await res.arrayBuffer()))).flat().map((t) => t.text).join('\n')
    }
    // The world's first call is to 01632 960 000; its calls by number are totals, not itemisation.
    for (const consent of [null, 'No']) {
      assert.is((await h.request('PATCH', `/customers/${customerID}`, { GDPRPECRConsentGiven: consent })).status, 200)
      const text = await printed()
      assert.not.match(text, /Itemised Calls|01632 960 000/, `consent ${consent}`)
      assert.match(text, /Calls by Number/)
    }
    assert.is((await h.request('PATCH', `/customers/${customerID}`, { GDPRPECRConsentGiven: 'Yes' })).status, 200)
    const text = await printed()
    assert.match(text, /Itemised Calls/)
    assert.match(text, /01632 960 000/)
  })

  test.run()
}
