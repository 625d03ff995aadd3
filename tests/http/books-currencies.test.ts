import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { reportsApi } from '../../apps/library/reports-api.js'
import { moneyToNumber, type Money } from '../../core/money/money.js'
import { commissionStatements, commissionWindow } from '../../core/reports/commission-statement.js'
import { journalRange, journalReport, runJournalScope } from '../../core/reports/journal-report.js'
import { marginQuery, marginReport } from '../../core/reports/margin-report.js'
import { bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * The books' reports never add two currencies unsaid (contract 10.5, 16.2-16.4): a GBP and a EUR
 * customer billed in one month. Every margin row, journal line and commission line says its
 * customer's currency, a margin group is one currency, `totalsByCurrency` sums each apart, and
 * `?currency=` keeps one; the CSV is the JSON's lines and totals.
 */
const get = async (h: Harness, path: string, csv = false) => {
  const r = await h.request('GET', path, undefined, csv ? { headers: { accept: 'text/csv' } } : {})
  assert.is(r.status, 200, `${path}: ${JSON.stringify(r.body)}`)
  return csv ? r.text.trim().split('\r\n') : r.body
}
const cell = (v: unknown) => (v === null || v === undefined ? '' : /[",\r\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v))
const FIGURES = ['revenue', 'cost', 'margin', 'marginPercent'] as const

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; g: string; e: string; run: string }>(`books: reports keep currencies apart [${target}]`)
  test.before.each(async (ctx) => {
    const h = (ctx.h = await openHarness(target, { now: '2026-02-10T09:00:00Z' }))
    // January, Calendar Monthly: GBP 30.00 (carrier 10.00, commission 3.00); EUR 20.00 (carrier 5.00, commission 2.00).
    ctx.g = await newCustomer(h, { accountNumber: 'G-1', VATRate: 'Standard 20%', commissionHolder: 'Alice Morgan' })
    ctx.e = await newCustomer(h, { accountNumber: 'E-1', VATRate: 'Standard 20%', commissionHolder: 'Alice Morgan', currency: 'EUR' })
    const feature = (serviceCharge: string, serviceChargeCarrier: string, serviceChargeCommission: string) =>
      ({ featureType: 'Broadband', carrier: 'Gamma', startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge, serviceChargeCarrier, serviceChargeCommission, serviceChargeCommissionType: 'Fixed Amount' })
    await newFeature(h, ctx.g, feature('30.00', '10.00', '3.00'))
    await newFeature(h, ctx.e, feature('20.00', '5.00', '2.00'))
    ctx.run = (await bill(h, '2026-01-31')).id
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('margin by customer and carrier: a row per currency, totalsByCurrency, ?currency= keeps one, CSV as JSON', async ({ h, g, e }) => {
    const byCustomer = await get(h, '/reports/margin?from=2026-01-01&to=2026-01-31')
    assert.equal(byCustomer.rows, [
      { customer: g, revenue: 30, cost: 10, margin: 20, marginPercent: 66.67, currency: 'GBP' },
      { customer: e, revenue: 20, cost: 5, margin: 15, marginPercent: 75, currency: 'EUR' },
    ])
    const byCurrency = [
      { revenue: 20, cost: 5, margin: 15, marginPercent: 75, currency: 'EUR' },
      { revenue: 30, cost: 10, margin: 20, marginPercent: 66.67, currency: 'GBP' },
    ]
    // `totals` keeps its shape (every row: meaningful within one currency only).
    assert.equal(byCustomer.totals, { revenue: 50, cost: 15, margin: 35, marginPercent: 70 })
    assert.equal(byCustomer.totalsByCurrency, byCurrency)

    const byCarrier = await get(h, '/reports/margin?groupBy=carrier')
    assert.equal(byCarrier.rows, [
      { carrier: 'Gamma', revenue: 20, cost: 5, margin: 15, marginPercent: 75, currency: 'EUR' },
      { carrier: 'Gamma', revenue: 30, cost: 10, margin: 20, marginPercent: 66.67, currency: 'GBP' },
    ])
    assert.equal(byCarrier.totalsByCurrency, byCurrency)
    for (const groupBy of ['month', 'featureType', 'callClass']) {
      const m = await get(h, `/reports/margin?groupBy=${groupBy}`)
      assert.equal(m.rows.map((r: any) => [r.currency, r.revenue]), [['EUR', 20], ['GBP', 30]], groupBy)
    }

    const eur = await get(h, '/reports/margin?groupBy=carrier&currency=EUR')
    assert.equal(eur.rows, [byCarrier.rows[0]])
    assert.equal(eur.totals, { revenue: 20, cost: 5, margin: 15, marginPercent: 75 })
    assert.equal(eur.totalsByCurrency, [byCurrency[0]])
    assert.equal((await get(h, '/reports/margin?currency=GBP')).rows, [byCustomer.rows[0]])

    // CSV: `currency` the last column; a total line per currency, then every currency's (currency empty).
    const csv = await get(h, '/reports/margin?groupBy=carrier', true)
    const line = (first: unknown, t: any) => [first, ...FIGURES.map((f) => t[f]), t.currency].map(cell).join(',')
    assert.equal(csv, [
      'carrier,revenue,cost,margin,marginPercent,currency',
      ...byCarrier.rows.map((r: any) => line(r.carrier, r)),
      ...byCarrier.totalsByCurrency.map((t: any) => line('total', t)),
      line('total', byCarrier.totals),
    ])
    assert.equal(await get(h, '/reports/margin?groupBy=carrier&currency=EUR', true), ['carrier,revenue,cost,margin,marginPercent,currency', 'Gamma,20,5,15,75,EUR', 'total,20,5,15,75,EUR', 'total,20,5,15,75,'])
  })

  test("journals: each line's currency, totalsByCurrency, ?currency= keeps one, CSV as JSON; the library passes it through", async ({ h, g, e, run }) => {
    const journal = await get(h, `/billingRuns/${run}/journal`)
    assert.equal(journal.lines.map((l: any) => [l.customerID, l.net, l.VAT, l.currency]), [[g, 30, 6, 'GBP'], [e, 20, 4, 'EUR']])
    assert.equal(journal.totals, { net: 50, VAT: 10, total: 60 })
    assert.equal(journal.totalsByCurrency, [{ net: 20, VAT: 4, total: 24, currency: 'EUR' }, { net: 30, VAT: 6, total: 36, currency: 'GBP' }])
    const eur = await get(h, `/billingRuns/${run}/journal?currency=EUR`)
    assert.equal(eur.lines, [journal.lines[1]])
    assert.equal([eur.totals, eur.totalsByCurrency], [{ net: 20, VAT: 4, total: 24 }, [{ net: 20, VAT: 4, total: 24, currency: 'EUR' }]])

    // A payment of the EUR customer is a EUR document.
    const paid = await h.request('POST', `/customers/${e}/transactions`, { transactionType: 'Payment', amount: -24, transactionDate: '2026-02-05' })
    assert.is(paid.status, 201, JSON.stringify(paid.body))
    const all = await get(h, '/journal?from=2026-01-01&to=2026-02-28')
    assert.equal(all.lines.map((l: any) => [l.documentType, l.net, l.currency]), [['invoice', 30, 'GBP'], ['invoice', 20, 'EUR'], ['payment', -24, 'EUR']])
    assert.equal(all.totalsByCurrency, [{ net: -4, VAT: 4, total: 0, currency: 'EUR' }, { net: 30, VAT: 6, total: 36, currency: 'GBP' }])
    assert.equal((await get(h, '/journal?currency=GBP')).lines, [all.lines[0]])

    const columns = ['date', 'documentType', 'document', 'customerID', 'account', 'accountCode', 'VATRate', 'net', 'VAT', 'currency']
    const asCsv = (j: any) => [
      columns.join(','),
      ...j.lines.map((l: any) => columns.map((k) => cell(l[k])).join(',')),
      ...[...j.totalsByCurrency, { ...j.totals, currency: '' }].map((t: any) => `total,,,,,,,${t.net},${t.VAT},${t.currency}`),
    ]
    assert.equal(await get(h, '/journal?from=2026-01-01&to=2026-02-28', true), asCsv(all))
    assert.equal(await get(h, `/billingRuns/${run}/journal`, true), asCsv(journal))
    assert.equal(await get(h, `/billingRuns/${run}/journal?currency=EUR`, true), asCsv(eur))

    const reports = reportsApi(h.platform.context)
    assert.equal(await reports.runJournal(run, { currency: 'EUR' }), eur)
    assert.equal((await reports.journal({ currency: 'GBP' })).lines, [all.lines[0]])
    assert.equal((await reports.margin({ groupBy: 'carrier', currency: 'EUR' })).rows.map((r) => r.currency), ['EUR'])
    assert.equal((await reports.commissionStatements({ billingRunID: run, currency: 'GBP' })).statements[0].lines.map((l) => l.currency), ['GBP'])
  })

  test("commission statements: each line's currency, totalsByCurrency, ?currency= keeps one, CSV as JSON", async ({ h, g, e, run }) => {
    const [statement] = (await get(h, `/commissionStatements?billingRunID=${run}`)).statements
    assert.equal(statement.lines.map((l: any) => [l.customerID, l.commission, l.currency]), [[g, 3, 'GBP'], [e, 2, 'EUR']])
    assert.is(statement.total, 5)
    assert.equal(statement.totalsByCurrency, [{ total: 2, currency: 'EUR' }, { total: 3, currency: 'GBP' }])
    const [eur] = (await get(h, `/commissionStatements?billingRunID=${run}&holder=Alice%20Morgan&currency=EUR`)).statements
    assert.equal([eur.lines, eur.total, eur.totalsByCurrency], [[statement.lines[1]], 2, [{ total: 2, currency: 'EUR' }]])
    const csv = await get(h, `/commissionStatements?billingRunID=${run}`, true)
    const columns: string[] = csv[0].split(',')
    assert.is(columns.at(-1), 'currency')
    const total = (t: any) => ['Alice Morgan', 'total', ...Array(columns.length - 4).fill(''), t.total, t.currency].join(',')
    assert.equal(csv.slice(1), [
      ...statement.lines.map((l: any) => columns.map((k) => cell(l[k])).join(',')),
      ...statement.totalsByCurrency.map(total),
      total({ total: 5, currency: '' }),
    ])
  })

  test("the core reports carry the totals the routes answer: margin, journals and commission statements, pages walked or not", async ({ h, e, run }) => {
    const ctx = h.platform.context
    const numbers = <T extends object>(t: T) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, typeof v === 'bigint' ? moneyToNumber(v as Money) : v]))
    const paid = await h.request('POST', `/customers/${e}/transactions`, { transactionType: 'Payment', amount: -24, transactionDate: '2026-02-05' })
    assert.is(paid.status, 201, JSON.stringify(paid.body))

    const margin = marginReport(ctx, marginQuery(new URLSearchParams('groupBy=carrier'), ctx.presets))
    for await (const _ of margin.pages);
    const { totals, totalsByCurrency } = await get(h, '/reports/margin?groupBy=carrier')
    const figures = (l: ReturnType<typeof margin.totals>) => ({ revenue: moneyToNumber(l.revenue), cost: moneyToNumber(l.cost), margin: moneyToNumber(l.margin), marginPercent: l.marginPercent === null ? null : moneyToNumber(l.marginPercent) })
    assert.equal([figures(margin.totals()), margin.totalsByCurrency().map((t) => ({ ...figures(t), currency: t.currency }))], [totals, totalsByCurrency])

    for (const [path, scope] of [
      [`/billingRuns/${run}/journal`, await runJournalScope(ctx, run)],
      [`/billingRuns/${run}/journal?currency=EUR`, await runJournalScope(ctx, run, 'EUR')],
      ['/journal?from=2026-01-01&to=2026-02-28', journalRange(new URLSearchParams('from=2026-01-01&to=2026-02-28'), ctx.presets)],
    ] as const) {
      const http = await get(h, path)
      for (const csv of [false, true]) {
        // Its lines walked, as the routes walk them, and its pages only passed over: the same totals.
        for (const walk of [true, false]) {
          const journal = journalReport(ctx, scope, csv)
          for await (const page of journal.pages) if (walk && !('csv' in page)) page.forEach(() => {})
          assert.equal([numbers(journal.totals()), journal.totalsByCurrency().map(numbers)], [http.totals, http.totalsByCurrency], `${path} csv ${csv} walked ${walk}`)
        }
      }
    }

    const window = await commissionWindow(ctx, run)
    for (const [holder, currency] of [[null, null], ['Alice Morgan', 'EUR']] as const) {
      const http = (await get(h, `/commissionStatements?billingRunID=${run}${holder ? `&holder=${encodeURIComponent(holder)}` : ''}${currency ? `&currency=${currency}` : ''}`)).statements
      const statements: unknown[] = []
      for await (const s of commissionStatements(ctx, window, holder, currency)) {
        for await (const _ of s.pages);
        statements.push({ holder: s.holder, total: moneyToNumber(s.total()), totalsByCurrency: s.totalsByCurrency().map(numbers) })
      }
      assert.equal(statements, http.map((s: any) => ({ holder: s.holder, total: s.total, totalsByCurrency: s.totalsByCurrency })))
    }
  })

  test('a bad currency is 400103 on every report', async ({ h, run }) => {
    for (const path of ['/reports/margin?currency=XYZ', '/reports/margin?currency=eur', '/journal?currency=EURO', `/billingRuns/${run}/journal?currency=XYZ`, `/commissionStatements?billingRunID=${run}&currency=12`]) {
      const r = await h.request('GET', path)
      assert.equal([r.status, r.body.error_code], [400, 400103], path)
    }
    try {
      await reportsApi(h.platform.context).runJournal(run, { currency: 'XYZ' })
      assert.unreachable('refused')
    } catch (err) {
      assert.is((err as { code?: string }).code, 'invalid_query')
    }
  })

  test.run()
}
