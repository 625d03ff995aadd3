import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { pdfLines } from '../support/pdf-text.js'
import { pounds, worldOn } from '../support/invoice-documents.js'
import type { World } from '../support/invoice-world.js'
import { activeTargets } from '../support/targets.js'

/** Debian's Chromium (.ci/run installs it), as tests/browser/docs.test.ts drives it. */
const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const
const PAGES = ['summary', 'invoices', 'calls', 'allowances', 'payments', 'pay'] as const
/** `PORTAL_SCREENSHOTS=docs` writes the README's pictures (docs/portal-*.png). */
const WRITE_DOCS = process.env.PORTAL_SCREENSHOTS === 'docs'

function distinctColours(png: Buffer): number {
  const { data } = PNG.sync.read(png)
  const seen = new Set<number>()
  for (let i = 0; i < data.length; i += 4) seen.add(data.readUInt32BE(i))
  return seen.size
}

/** WCAG 2.1 A and AA violations of the page, as "rule: target" lines. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated as a script of the page (as a browser extension would run it): a third less of
  // Chromium's CPU than a <script> element carrying the same 550 kB, once for each of ~22 checks.
  await page.evaluate(AXE)
  const result = await page.evaluate(() =>
    (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
  )
  return (result.violations as any[]).flatMap((v) => v.nodes.map((n: any) => `${v.id}: ${n.target.join(' ')}`))
}

if (!existsSync(CHROMIUM)) {
  console.log(`\n[browser] SKIPPED: ${CHROMIUM} not installed; the portal was not opened in a browser.\n`)
} else {
  // The pages' markup does not depend on the database: what a database changes is what the
  // server reads, which tests/http/portal.test.ts and portal-pages.test.ts check on every target,
  // sign-ins, pages, documents and downloads alike. So the browser opens them on the first target
  // only (every target cost the suite a minute and a half, on the 2026-11-28 machine).
  const [target] = activeTargets()
  const test = suite<{ h: Harness; world: World; browser: Browser; context: BrowserContext; page: Page; base: string; pin: string }>(`browser: self-service portal [${target}]`)
  test.before(async (ctx) => {
    const { chromium } = await import('playwright-core')
    ctx.h = await openHarness(target, { now: '2026-02-10T09:00:00Z' })
    const h = ctx.h
    ctx.world = await worldOn(h, { numbers: 2, calls: 12, payment: '75.00', accountNumber: 'NW-1001', customer: { portalCustomerProfile: 'Standard Portal' } })
    const c = ctx.world.customerID
    await h.request('POST', `/customers/${c}/customerContacts`, { firstnames: 'Nia', lastname: 'Walker', email: 'nia@northwind.example', accountPassword: 'portal pass phrase' })
    ctx.pin = (await h.request('POST', `/customers/${c}?action=generatePIN`, {})).body.pin
    await h.request('PATCH', `/numbers/${ctx.world.numberIDs[0]}`, { discountPlan1: '1000 UK Minutes' })
    const number = (await h.request('GET', `/numbers/${ctx.world.numberIDs[0]}`)).body.number.replace(/\s/g, '')
    const rows = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID']
    for (let i = 0; i < 6; i++) rows.push(`${number},07700 900${100 + i},2026-02-0${i + 2}T10:0${i}:00Z,${120 + i * 30},MOB,mobile,Gamma,feb-${i}`)
    const imported = await h.request('POST', '/usageFiles?name=february.csv', undefined, { raw: rows.join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
    assert.ok(imported.status < 300, JSON.stringify(imported.body))
    ctx.base = await h.listen()
    ctx.browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
    // CSP allows no script: axe is injected with the page's CSP bypassed, as a browser extension would be.
    ctx.context = await ctx.browser.newContext({ viewport: WIDTHS.desktop, bypassCSP: true, acceptDownloads: true })
    ctx.page = await ctx.context.newPage()
  })
  test.after(async (ctx) => {
    await ctx.browser?.close()
    await ctx.h?.close()
  })

  /**
   * A visit: the suite's one page, its cookies cleared (no session left from the last visit) and set
   * to `viewport`, signed in afresh. A context of its own each visit cost a renderer process each
   * (seconds of CPU); the pages run no script, so cookies are all a visit leaves behind.
   */
  async function signedInPage(ctx: { context: BrowserContext; page: Page; base: string }, how: 'password' | 'pin', pin: string, viewport: { width: number; height: number }) {
    const { context, page } = ctx
    await context.clearCookies()
    assert.equal(await context.cookies(), [], 'a visit starts with no cookie')
    await page.setViewportSize(viewport)
    const outside: string[] = []
    const onRequest = (r: { url(): string }) => {
      if (!r.url().startsWith(ctx.base)) outside.push(r.url())
    }
    page.on('request', onRequest)
    await page.goto(`${ctx.base}/portal/sign-in`)
    if (how === 'password') {
      await page.fill('#email', 'nia@northwind.example')
      await page.fill('#password', 'portal pass phrase')
      await page.locator('form:has(#email) button').click()
    } else {
      await page.fill('#accountNumber', 'NW-1001')
      await page.fill('#pin', pin)
      await page.locator('form:has(#pin) button').click()
    }
    await page.waitForURL(/\/portal\/summary$/)
    return { page, outside, close: async () => void page.off('request', onRequest) }
  }

  test('signs in both ways; every page at desktop and phone width: not blank, no outside request, no WCAG 2.1 AA violation', async (ctx) => {
    for (const how of ['password', 'pin'] as const) {
      // The pages a PIN opens are the password's pages of the same account: they are checked in
      // full (screenshots, axe) once, and a PIN's visit opens each of them at desktop width.
      const sizes = Object.entries(WIDTHS).slice(0, how === 'password' ? undefined : 1)
      for (const [size, viewport] of sizes) {
        const { page, outside, close } = await signedInPage(ctx, how, ctx.pin, viewport)
        for (const name of PAGES) {
          await page.goto(`${ctx.base}/portal/${name}`)
          assert.is(await page.locator('h1').count(), 1, name)
          if (how === 'pin') continue
          const png = await page.screenshot({ fullPage: true })
          assert.ok(distinctColours(png) > 20, `${name} at ${size} is not blank`)
          if (WRITE_DOCS && how === 'password' && (name === 'summary' || name === 'invoices')) writeFileSync(`docs/portal-${name}${size === 'phone' ? '-phone' : ''}.png`, png)
          const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
          assert.ok(scroll <= 1, `${name} at ${size} does not scroll sideways (${scroll}px)`)
          assert.equal(await axeViolations(page), [], `${name} at ${size}`)
        }
        if (how === 'password') {
          // Pay now's form answers with a redirect to the page of the links it made (Post/Redirect/Get).
          await page.goto(`${ctx.base}/portal/pay`)
          await page.locator('form[action$="/pay"] button').click()
          await page.waitForURL(/\/portal\/pay\?made=[0-9a-f-]{36}$/)
          assert.ok(await page.locator('ul.links a').count() > 0, `the links at ${size}`)
          assert.equal(await axeViolations(page), [], `pay links at ${size}`)
        }
        // The sign-in page itself, after signing out by its form.
        await page.locator('form.sign-out button').click()
        await page.waitForURL(/\/portal\/sign-in$/)
        if (how === 'password') assert.equal(await axeViolations(page), [], `sign-in at ${size}`)
        assert.equal(outside, [], 'nothing asked from another origin')
        await close()
      }
    }
  })

  test('the invoices page opens the HTML document and downloads the PDF with its totals', async (ctx) => {
    const { page, close } = await signedInPage(ctx, 'password', ctx.pin, WIDTHS.desktop)
    await page.goto(`${ctx.base}/portal/invoices`)
    const total = pounds(ctx.world.invoice.totalAmount)
    assert.match(await page.locator('tbody tr').first().innerText(), new RegExp(total.replace(/[£.]/g, (c) => `\\${c}`)))
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('tbody tr a[download]').first().click()])
    const text = (await pdfLines(readFileSync((await download.path())!))).flat().join(' ')
    assert.ok(text.includes(total), `the PDF shows the total ${total}`)
    // Six February calls of 120..270 s on the number holding 1000 UK Minutes: 19.5 used, 980.5 left.
    await page.goto(`${ctx.base}/portal/allowances`)
    const row = await page.locator('tbody tr', { hasText: '1000 UK Minutes' }).innerText()
    assert.match(row, /1,000\s+19\.5\s+980\.5/)
    await page.goto(`${ctx.base}/portal/invoices`)
    await page.locator('tbody tr th a').first().click()
    assert.ok((await page.content()).includes(total), 'the HTML document shows the total')
    await close()
  })

  test('the invoices page as each onlineBillType shows it: no WCAG 2.1 AA violation, the calls CSV downloads', async (ctx) => {
    const customer = `/customers/${ctx.world.customerID}`
    try {
      // One visit a width: the page reads the bill type on each request.
      for (const [size, viewport] of Object.entries(WIDTHS)) {
        const { page, close } = await signedInPage(ctx, 'password', ctx.pin, viewport)
        for (const type of ['PDF + CSV', 'CSV', 'Summary Only', 'None']) {
          await ctx.h.request('PATCH', customer, { onlineBillType: type, GDPRPECRConsentGiven: 'Yes' })
          await page.goto(`${ctx.base}/portal/invoices`)
          if (type.includes('CSV') && size === 'desktop') {
            const [download] = await Promise.all([page.waitForEvent('download'), page.locator('tbody tr a[href$="/csv"]').first().click()])
            assert.match(readFileSync((await download.path())!, 'utf8'), /^startTime,number,dialledNumber/, type)
          }
          const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
          assert.ok(scroll <= 1, `${type} at ${size} does not scroll sideways (${scroll}px)`)
          assert.equal(await axeViolations(page), [], `${type} at ${size}`)
        }
        await close()
      }
    } finally {
      await ctx.h.request('PATCH', customer, { onlineBillType: null, GDPRPECRConsentGiven: null })
    }
  })

  test.run()
}
