import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { PNG } from 'pngjs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { getDocument, invoiceAmounts, pounds, worldOn } from '../support/invoice-documents.js'
import type { World } from '../support/invoice-world.js'
import { activeTargets } from '../support/targets.js'

/** Debian's Chromium (.ci/run installs it), as tests/browser/docs.test.ts drives it. */
const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** How many different colours a PNG holds: a blank or failed render has one or two. */
function distinctColours(png: Buffer): number {
  const { data } = PNG.sync.read(png)
  const seen = new Set<number>()
  for (let i = 0; i < data.length; i += 4) seen.add(data.readUInt32BE(i))
  return seen.size
}

if (!existsSync(CHROMIUM)) {
  console.log(`\n[browser] SKIPPED: ${CHROMIUM} not installed; the invoice HTML page was not opened in a browser.\n`)
} else {
  // One Chromium for every target's suite (a launch is seconds of CPU); the last suite closes it.
  let shared: Promise<Browser> | undefined
  const launch = async (): Promise<Browser> => {
    const { chromium } = await import('playwright-core')
    return (shared ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS }))
  }
  const targets = activeTargets()
  for (const target of targets) {
    const test = suite<{ h: Harness; world: World; browser: Browser }>(`browser: invoice HTML page [${target}]`)
    test.before(async (ctx) => {
      ctx.h = await openHarness(target, { now: '2026-02-10T09:00:00Z' })
      ctx.world = await worldOn(ctx.h, { numbers: 3, calls: 30, payment: '75.00', customer: { billStyle: 'Corporate', nextInvoiceMessage: 'Price change notice' } })
      ctx.browser = await launch()
    })
    test.after(async (ctx) => {
      if (target === targets.at(-1)) await shared?.then((b) => b.close(), () => {})
      await ctx.h?.close()
    })

    test('the page renders (not blank), asks nothing from outside, and its totals read back equal the JSON', async ({ h, world, browser }) => {
      const html = Buffer.from((await getDocument(h, world.invoice.id, 'text/html')).bytes).toString('utf8')
      const page = await browser.newPage({ viewport: { width: 900, height: 1200 } })
      const requests: string[] = []
      page.on('request', (r) => requests.push(r.url()))
      await page.setContent(html, { waitUntil: 'load' })
      assert.equal(requests, [], 'a self-contained page')
      const png = await page.screenshot({ fullPage: true })
      const colours = distinctColours(png)
      assert.ok(colours > 50, `the screenshot has ${colours} colours: not blank`)
      for (const [field, amount] of Object.entries(invoiceAmounts(world.invoice))) {
        const shown = (await page.locator(`table.totals tr[data-key="${field}"] > :last-child`).innerText()).trim()
        assert.is(shown, pounds(amount), field)
      }
      const summary = (await page.locator('section[data-page="Summary"] tfoot tr > :last-child').innerText()).trim()
      assert.is(summary, pounds(world.invoice.totalAmount), 'the Summary page total')
      const calls = await page.locator('section[data-page="Itemised Calls"] tbody tr[data-key="call"]').count()
      assert.is(calls, 30)
      assert.match(await page.locator('aside.message').innerText(), /Our prices change from 1 April/)
      const heights = await page.locator('section.bill-page').evaluateAll((sections) => sections.map((s) => (s as HTMLElement).offsetHeight))
      assert.ok(heights.length === 7 && heights.every((px) => px > 20), 'every page is laid out')
      await page.close()
    })

    test.run()
  }
}
