import { existsSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'

/** Debian's Chromium (.ci/run installs it); playwright-core drives it, downloading nothing. */
const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const WAIT = { timeout: 20_000 }

/** "Try it" on GET /customers: authorize with `key`, expand the operation, execute; the answer to the request `isList` recognises. */
async function tryListCustomers(page: Page, key: string, isList: (url: string) => boolean) {
  await page.locator('button.authorize').first().click(WAIT)
  await page.locator('#auth-bearer-value').fill(key, WAIT)
  await page.locator('.auth-btn-wrapper button[type=submit]').click(WAIT)
  await page.locator('.auth-btn-wrapper button.btn-done').click(WAIT)
  const op = page.locator('#operations-customers-listCustomers')
  await op.locator('.opblock-summary').click(WAIT)
  await op.locator('.try-out__btn').click(WAIT)
  const answered = page.waitForResponse((r) => isList(r.url()) && r.request().method() === 'GET', WAIT)
  await op.locator('button.execute').click(WAIT)
  return { op, response: await answered }
}

/** One Chromium for both suites: a launch is a second or two of the suite's time. */
let shared: Promise<Browser> | undefined
const browser = async (): Promise<Browser> => {
  const { chromium } = await import('playwright-core')
  return (shared ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS }))
}

if (!existsSync(CHROMIUM)) {
  console.log(`\n[browser] SKIPPED: ${CHROMIUM} not installed; the API reference page was not tried in a browser.\n`)
} else {
  // One page for the whole suite: Swagger UI takes seconds to lay out the document.
  const test = suite<{ h: Harness; base: string; browser: Browser; page: Page; outside: string[] }>('browser: API reference page')
  test.before(async (ctx) => {
    ctx.h = await openHarness('sqlite-memory')
    await ctx.h.request('POST', '/customers', { lastname: 'Lovelace', accountNumber: 'ACC-DOCS' })
    ctx.base = await ctx.h.listen()
    ctx.browser = await browser()
    ctx.page = await ctx.browser.newPage()
    ctx.outside = []
    ctx.page.on('request', (r) => {
      if (!r.url().startsWith(ctx.base) && !r.url().startsWith('data:')) ctx.outside.push(r.url())
    })
    await ctx.page.goto(`${ctx.base}/backend/api/v1/docs`)
  })
  test.after(async (ctx) => {
    await ctx.page?.close()
    await ctx.h?.close()
  })

  test('the page lists the endpoints, loading nothing from outside this server', async ({ page, outside }) => {
    await page.locator('#operations-customers-listCustomers').waitFor(WAIT)
    const paths = await page.locator('.opblock-summary-path').allInnerTexts()
    const normalised = paths.map((p) => p.replace(/\u200b/g, ''))
    assert.ok(normalised.includes('/backend/api/v1/customers'), normalised.slice(0, 5).join(' '))
    assert.ok(normalised.includes('/backend/api/v1/customers/{id}'))
    assert.ok(normalised.includes('/healthz'))
    assert.equal(outside, [])
  })

  test('"try it": authorize with a bearer key, expand GET /customers, execute → 200', async ({ h, page, outside }) => {
    const { op, response } = await tryListCustomers(page, h.keys.low, (url) => new URL(url).pathname === '/backend/api/v1/customers')
    assert.is(response.status(), 200)
    assert.is((await response.request().allHeaders()).authorization, `Bearer ${h.keys.low}`)
    const body = (await response.json()) as { accountNumber: string }[]
    assert.equal(body.map((c) => c.accountNumber), ['ACC-DOCS'])
    // The page shows the live answer too.
    const status = op.locator('.live-responses-table tbody .response-col_status').first()
    await status.waitFor(WAIT)
    assert.match(await status.innerText(), /^200/)
    assert.equal(outside, [])
  })

  test.run()

  // Mounted inside another h3 app: the page, its files, the document and "try it" all live
  // under the mount point.
  const mounted = suite<{ h: Harness; base: string; browser: Browser; page: Page; failed: string[]; close: () => Promise<void> }>('browser: API reference page, mounted under /billing')
  mounted.before(async (ctx) => {
    const { H3 } = await import('h3')
    const { toNodeHandler } = await import('h3/node')
    const { createServer } = await import('node:http')
    ctx.h = await openHarness('sqlite-memory')
    await ctx.h.request('POST', '/customers', { lastname: 'Hopper', accountNumber: 'ACC-MOUNT' })
    const outer = new H3()
    outer.mount('/billing', ctx.h.platform.app)
    const server = createServer(toNodeHandler(outer))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    ctx.base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    ctx.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
    ctx.browser = await browser()
    ctx.page = await ctx.browser.newPage()
    ctx.failed = []
    ctx.page.on('response', (r) => {
      if (r.status() >= 400) ctx.failed.push(`${r.status()} ${r.url()}`)
    })
    await ctx.page.goto(`${ctx.base}/billing/backend/api/v1/docs`)
  })
  mounted.after(async (ctx) => {
    await ctx.browser?.close()
    await ctx.close?.()
    await ctx.h?.close()
  })

  mounted('the page renders from files under the mount point, and "try it" calls the mounted API', async ({ h, base, page, failed }) => {
    await page.locator('#operations-customers-listCustomers').waitFor(WAIT)
    assert.equal(failed, [])
    const { response } = await tryListCustomers(page, h.keys.low, (url) => url.startsWith(`${base}/billing/backend/api/v1/customers`))
    assert.is(response.status(), 200)
    assert.equal(((await response.json()) as { accountNumber: string }[]).map((c) => c.accountNumber), ['ACC-MOUNT'])
    assert.equal(failed, [])
  })

  mounted('Location and Link headers carry the mount point', async ({ h, base }) => {
    const headers = { authorization: `Bearer ${h.keys.admin}`, 'content-type': 'application/json' }
    const created = await fetch(`${base}/billing/backend/api/v1/customers`, { method: 'POST', headers, body: JSON.stringify({ accountNumber: 'ACC-MOUNT-2' }) })
    assert.is(created.status, 201)
    const id = ((await created.json()) as { id: string }).id
    assert.is(created.headers.get('location'), `/billing/backend/api/v1/customers/${id}`)
    const hook = await fetch(`${base}/billing/backend/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: 'https://example.com/hook' }) })
    assert.is(hook.status, 201)
    assert.is(hook.headers.get('location'), `/billing/backend/api/v1/webhooks/${((await hook.json()) as { id: string }).id}`)
    const page = await fetch(`${base}/billing/backend/api/v1/customers?limit=1`, { headers })
    assert.match(page.headers.get('link')!, /^<\/billing\/backend\/api\/v1\/customers\?limit=1&idAfter=\d+>; rel="next"$/)
    const doc = (await (await fetch(`${base}/billing/backend/api/v1/openapi.json`)).json()) as { servers: { url: string }[] }
    assert.equal(doc.servers.map((s) => s.url), ['/billing'])
  })

  mounted.run()
}
