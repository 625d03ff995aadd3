import { openPlatform } from '../apps/platform/platform.js'
import { addDays, addMonths, type DateOnly } from '../core/dates/date-only.js'
import type { Money } from '../core/money/money.js'
import { parseArgs } from './support/args.js'
import { API, startApiServer } from './support/api-server.js'
import { openBenchDatabase } from './support/database.js'
import { runLoad, type LoadResult } from './support/load.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/**
 * The portal's invoices page under load (issue 51): 50 signed-in sessions at once on the page of
 * a customer with 36 invoices, beside the API's own GET of one customer on the same server.
 * Target: p99 under 50 ms on a SQLite file.
 */
const args = parseArgs()
const report = new Report('portal', args)
const db = await openBenchDatabase(args.db, args.keep)
const SESSIONS = 50
const PIN = '246810'
try {
  const platform = await openPlatform({ ...db.config })
  const ctx = platform.context
  const now = ctx.clock.now()
  const customer = await ctx.store.repository('customers').insert({
    accountNumber: 'PORTAL-1',
    companyName: 'Portal Bench Ltd',
    portalCustomerProfile: 'Standard Portal',
    portalPIN: await ctx.passwords.hash(PIN),
    createdStamp: now,
    updatedStamp: now,
  } as never)
  // Three years of monthly invoices, the older ones paid.
  for (let i = 0; i < 36; i++) {
    const invoiceDate = addDays(addMonths('2023-02-01' as DateOnly, i), -1)
    const total = BigInt(1_000_000 + i * 12_345) as Money
    await ctx.store.repository('invoices').insert({
      customerID: customer.id,
      invoiceDate,
      dueDate: addDays(invoiceDate, 14),
      overdueDate: addDays(invoiceDate, 14),
      netAmount: total,
      VATAmount: 0n as Money,
      totalAmount: total,
      transactionIDs: [],
      amountPaid: i < 34 ? total : (0n as Money),
      amountOutstanding: i < 34 ? (0n as Money) : total,
      status: i < 34 ? 'Paid' : 'Unpaid',
      createdStamp: now,
      updatedStamp: now,
    } as never)
  }
  await platform.close()

  const api = await startApiServer(db)
  try {
    // Each session signs in as a browser would: the sign-in form's token, then the form.
    const cookies: string[] = []
    for (let i = 0; i < SESSIONS; i++) {
      const form = await fetch(`${api.origin}/portal/sign-in`)
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]
      const signInCookie = form.headers.getSetCookie()[0].split(';')[0]
      const r = await fetch(`${api.origin}/portal/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: signInCookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, method: 'pin', accountNumber: 'PORTAL-1', pin: PIN }).toString(),
      })
      if (r.status !== 303) throw new Error(`sign-in ${i} answered ${r.status}`)
      cookies.push(r.headers.getSetCookie().find((c) => c.startsWith('portal_session='))!.split(';')[0])
    }
    const check = await fetch(`${api.origin}/portal/invoices`, { headers: { cookie: cookies[0] } })
    const rows = ((await check.text()).match(/<th scope="row">/g) ?? []).length
    if (check.status !== 200 || rows !== 36) throw new Error(`the invoices page answered ${check.status} with ${rows} rows`)
    const duration = Math.max(3, Math.round(10 * Math.min(1, args.scale * 10)))
    let n = 0
    const portal = (seconds: number) =>
      runLoad({
        url: `${api.origin}/portal/invoices`,
        serverPid: api.child.pid,
        connections: SESSIONS,
        duration: seconds,
        // Each request is one of the 50 sessions, in turn.
        setup: (req) => ({ ...req, headers: { cookie: cookies[n++ % SESSIONS] } }) as never,
      })
    const apiGet = (seconds: number) =>
      runLoad({ url: `${api.origin}${API}/customers/${customer.id}`, serverPid: api.child.pid, connections: SESSIONS, duration: seconds, headers: { authorization: `Bearer ${db.key}` } })
    await portal(2)
    await apiGet(2)
    const pages: LoadResult[] = []
    const gets: LoadResult[] = []
    for (let run = 0; run < args.runs; run++) {
      pages.push(await portal(duration))
      gets.push(await apiGet(duration))
      const [p, g] = [pages.at(-1)!, gets.at(-1)!]
      log(`run ${run + 1}: portal invoices ${Math.round(p.rps)} req/s p99 ${p.p99} ms; API GET ${Math.round(g.rps)} req/s p99 ${g.p99} ms`)
    }
    const failures = pages.reduce((s, r) => s + r.failures, 0)
    const rps = median(pages.map((r) => r.rps))
    const getRps = median(gets.map((r) => r.rps))
    const p99 = median(pages.map((r) => r.p99))
    report.add({ name: 'portal invoices page throughput (50 sessions)', target: 'informative', measured: rps, unit: 'req/s', baseline: getRps, ratio: rps / getRps, pass: null, note: 'baseline: the API GET of one customer on the same server' })
    report.add({
      name: 'portal invoices page p99 (50 sessions, 36 invoices)',
      target: '< 50 ms',
      measured: p99,
      unit: 'ms',
      baseline: median(gets.map((r) => r.p99)),
      pass: p99 < 50 && failures === 0,
      note: failures ? `${failures} failed requests` : 'baseline: the API GET p99',
    })
  } finally {
    await api.stop()
  }
  report.finish({ invoices: 36, sessions: SESSIONS })
} finally {
  await db.dispose()
}
