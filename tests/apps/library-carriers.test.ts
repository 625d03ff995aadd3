import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createBillingPlatform, FixedClock, type BillingPlatform, type PresetSettings } from '../../index.js'
import { failure } from '../support/library-failure.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

const BASE = '/backend/api/v1'

/**
 * The content of a presets file as the `presets` option: a carrier's usage format, dunning
 * profiles and a portal profile in its object form. Each is a member of the presets file the
 * option's type once left out (TS2353 when compiling).
 */
const PRESETS = {
  usageFormats: {
    'Gamma CDR': {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: ['Call Date', 'Call Time'], durationSeconds: 'Duration', chargeBand: 'Band', callClass: 'Type', externalID: 'Ref' },
      dateFormat: 'dd/MM/yyyy',
      timeFormat: 'HH:mm:ss',
      duration: 'mm:ss',
      delimiter: ';',
      carrier: 'Gamma',
    },
  },
  dunningProfiles: { Strict: { steps: [{ afterDays: 7, action: 'reminder' }], onCreditLimit: 'suspend' } },
  defaultDunningProfile: 'Strict',
  portalProfiles: { 'Invoices Only': { pages: ['invoices'] } },
} as const satisfies PresetSettings

// @ts-expect-error a member no presets file has: refused when compiling, as mergePresets refuses it at run time
const misspelt: PresetSettings = { dunningProfile: {} }
void misspelt

interface Ctx {
  target: Target
  dir: string
  billing: BillingPlatform
  key: string
  customerID: string
  runID: string
}

/** Collects a CSV answer (the library's pieces) into one text. */
async function textOf(pieces: AsyncIterable<string>): Promise<string> {
  let text = ''
  for await (const piece of pieces) text += piece
  return text
}

for (const name of activeTargets()) {
  const test = suite<Ctx>(`apps: the library's carriers, reports and disaster-recovery files answer as the HTTP API does [${name}]`)

  /** The same request over HTTP: JSON or CSV in, the answer's status, text and JSON out. */
  async function http(ctx: Ctx, method: string, path: string, options: { json?: unknown; csv?: string; accept?: string } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${ctx.key}` }
    if (options.accept) headers.accept = options.accept
    if (options.json !== undefined) headers['content-type'] = 'application/json'
    if (options.csv !== undefined) headers['content-type'] = 'text/csv'
    const body = options.csv ?? (options.json === undefined ? undefined : JSON.stringify(options.json))
    const res = await ctx.billing.http.request(`${BASE}${path}`, { method, headers, body })
    const text = await res.text()
    return { status: res.status, text, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined }
  }

  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.dir = mkdtempSync(join(tmpdir(), 'library-dr-'))
    ctx.billing = await createBillingPlatform({
      databaseUrl: ctx.target.databaseUrl,
      schema: ctx.target.schema,
      clock: new FixedClock('2026-02-15T10:00:00Z'),
      presets: PRESETS,
      drPassword: 'library-dr-password-5c1e',
      drDir: ctx.dir,
    })
    const { billing } = ctx
    ctx.key = (await billing.apiKeys.create({ name: 'test', expertLevel: 5, permissions: ['dataProtectionDownload'] })).secret
    // The scheduler writes an archive at start when none is current.
    await new Promise<void>((resolve, reject) => {
      billing.startScheduler({
        onJobEnd: (entry) => {
          if (entry.job !== 'disaster-recovery') return
          if (entry.outcome === 'done') resolve()
          else reject(new Error(`disaster-recovery ${entry.outcome}: ${entry.error}`))
        },
      })
    })
    await billing.stopScheduler()

    const customer = await billing.customers.create({ accountNumber: 'C-1', lastname: 'Lovelace', commissionHolder: 'Alice Morgan' })
    ctx.customerID = customer.id
    const number = await billing.numbers.create(customer.id, { number: '01632 960001', carrierReference: 'REF-N1' })
    await billing.features.create({ numberID: number.id }, {
      featureType: 'SIP Channel', startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '50.00',
      carrier: 'Gamma', carrierProduct: 'SIP', serviceChargeCarrier: '20.00', serviceChargeCommission: '3.00',
    })
    await billing.transactions.add(customer.id, { transactionType: 'Payment', amount: '-10.00', transactionDate: '2026-02-05' })
    ctx.runID = (await billing.billingRuns.create({ name: 'January', cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })).id
    assert.is((await billing.billingRuns.runNext())?.status, 'Complete')
  })
  test.after(async (ctx) => {
    await ctx.billing?.close()
    await ctx.target?.dispose()
    rmSync(ctx.dir, { recursive: true, force: true })
  })

  test('destination tables: a table, a prefix as an object and a CSV of them, a prefix found; a usage file without band or class is rated by them', async (ctx) => {
    const { billing } = ctx
    const lacking = ['callingNumber,dialledNumber,startTime,durationSeconds,carrier,externalID', '01632960001,07700 900000,2026-01-14T10:00:00,61,Gamma,D1']
    const none = await failure(() => billing.usage.importFile(lacking))
    assert.match(none.error, /destination table/)
    assert.equal(none, await errorOf(ctx, 'POST', '/usageFiles', { csv: lacking.join('\n') }))

    const table = await billing.destinationTables.create({ name: 'default' })
    assert.equal(billing.toWire('destinationTables', await billing.destinationTables.get(table.id)), (await http(ctx, 'GET', `/destinationTables/${table.id}`)).body)
    assert.equal((await billing.destinationTables.list()).items.map((t) => billing.toWire('destinationTables', t)), (await http(ctx, 'GET', '/destinationTables')).body)
    const french = await billing.destinations.create(table.id, { prefix: '33', chargeBand: 'FR', callClass: 'international' })
    assert.equal([french.prefix, french.callClass], ['33', 'international'])
    const imported = await billing.destinations.importFile(table.id, ['prefix,chargeBand,callClass,description', '44,UK-GEO,national,UK geographic', '447,UK-MOB,mobile,UK mobiles', '4477,UK-MOB77,mobile,"UK 077, mobiles"'])
    assert.equal(imported, { destinationTableID: table.id, imported: 3 })
    const found = await billing.destinations.listOf(table.id, { prefix: '447' })
    assert.equal(found.items.map((d) => billing.toWire('destinations', d)), (await http(ctx, 'GET', `/destinationTables/${table.id}/destinations?prefix=447`)).body)

    // Refused alike: a prefix the table has, a line of a CSV, a table that does not exist.
    const again = await failure(() => billing.destinations.create(table.id, { prefix: '33', chargeBand: 'FR', callClass: 'international' }))
    assert.equal(again, await errorOf(ctx, 'POST', `/destinationTables/${table.id}/destinations`, { json: { prefix: '33', chargeBand: 'FR', callClass: 'international' } }))
    const badLine = ['prefix,chargeBand,callClass', '49,DE,teleport']
    assert.equal(await failure(() => billing.destinations.importFile(table.id, badLine)), await errorOf(ctx, 'POST', `/destinationTables/${table.id}/destinations`, { csv: badLine.join('\n') }))
    assert.equal(await failure(() => billing.destinations.listOf('999')), await errorOf(ctx, 'GET', '/destinationTables/999/destinations'))
    assert.equal(await failure(() => billing.destinations.create('999', { prefix: '1', chargeBand: 'US', callClass: 'international' })), await errorOf(ctx, 'POST', '/destinationTables/999/destinations', { json: { prefix: '1', chargeBand: 'US', callClass: 'international' } }))

    const file = await billing.usage.importFile(lacking, 'no bands')
    assert.equal([file.name, file.imported], ['no bands', 1])
    const [call] = (await billing.calls.list()).items.filter((c) => c.usageFileID === file.id)
    assert.equal([call.dialledNumber, call.chargeBand, call.callType], ['07700 900000', 'UK-MOB77', 'mobile'])

    const removed = await billing.destinations.delete(french.id)
    assert.is(removed.prefix, '33')
    assert.equal(await failure(() => billing.destinations.get(french.id)), await errorOf(ctx, 'GET', `/destinations/${french.id}`))
  })

  test("a usage file in a carrier's format: ?format= as an option, an unknown name refused alike", async (ctx) => {
    const { billing } = ctx
    const gamma = ['CLI;Dialled;Call Date;Call Time;Duration;Band;Type;Ref;Cost', '01632960001;01632960999;14/01/2026;10:00:05;01:01;NAT;national;R1;0.9']
    const file = await billing.usage.importFile(gamma, { name: 'gamma-jan', format: 'Gamma CDR' })
    assert.equal([file.name, file.rows, file.imported], ['gamma-jan', 1, 1])
    const [call] = (await billing.calls.list()).items.filter((c) => c.usageFileID === file.id)
    assert.equal([call.startTime, call.durationSeconds, call.carrier], ['2026-01-14T10:00:05.000Z', 61, 'Gamma'])
    assert.equal(await failure(() => billing.usage.importFile(gamma, { format: 'Nope' })), await errorOf(ctx, 'POST', '/usageFiles?format=Nope', { csv: gamma.join('\n') }))
    // Read in our layout, the carrier's file fails as HTTP fails it without ?format=.
    assert.equal(await failure(() => billing.usage.importFile(gamma)), await errorOf(ctx, 'POST', '/usageFiles', { csv: gamma.join('\n') }))
  })

  test("a carrier's bill: stored and reconciled, its reconciliation as JSON and CSV, as the API answers", async (ctx) => {
    const { billing } = ctx
    const lines = ['productCode,reference,description,quantity,cost', 'SIP,REF-N1,SIP channels,1,21.00', 'XX,REF-N1,Unknown,1,1.00']
    const bill = await billing.carrierBills.create('gamma ', '2026-01', lines)
    assert.equal([bill.carrier, bill.period, bill.lines, bill.matchedCount, bill.costDiffersCount, bill.notBilledCount], ['Gamma', '2026-01', 2, 1, 1, 1])
    assert.equal(billing.toWire('carrierBills', await billing.carrierBills.get(bill.id)), (await http(ctx, 'GET', `/carrierBills/${bill.id}`)).body)
    const json = await billing.carrierBills.reconciliation(bill.id)
    assert.equal(json, (await http(ctx, 'GET', `/carrierBills/${bill.id}/reconciliation`)).body)
    assert.equal(json.costDiffers.map((l) => [l.line, l.cost, l.expectedCost]), [[2, 21, 20]])
    const csv = await textOf(await billing.carrierBills.reconciliation(bill.id, { format: 'csv' }))
    assert.is(csv, (await http(ctx, 'GET', `/carrierBills/${bill.id}/reconciliation`, { accept: 'text/csv' })).text)
    assert.match(csv, /^outcome,line,/)
    // Refused alike: a carrier not in the presets, a bad period, a malformed line, a bill that does not exist.
    for (const [carrier, period] of [['Nobody', '2026-01'], ['Gamma', '2026-13']]) {
      assert.equal(await failure(() => billing.carrierBills.create(carrier, period, lines)), await errorOf(ctx, 'POST', `/carrierBills?carrier=${carrier}&period=${period}`, { csv: lines.join('\n') }))
    }
    const malformed = ['productCode,reference,cost', 'SIP,"REF,1']
    assert.equal(await failure(() => billing.carrierBills.create('Gamma', '2026-01', malformed)), await errorOf(ctx, 'POST', '/carrierBills?carrier=Gamma&period=2026-01', { csv: malformed.join('\n') }))
    assert.equal(await failure(() => billing.carrierBills.reconciliation('999')), await errorOf(ctx, 'GET', '/carrierBills/999/reconciliation'))
  })

  test('reports: margin, commission statements and journals with the parameters and answers of their routes, JSON and CSV', async (ctx) => {
    const { billing, runID } = ctx
    const same = async (library: () => Promise<unknown>, csv: () => Promise<AsyncIterable<string>>, path: string) => {
      assert.equal(await library(), (await http(ctx, 'GET', path)).body, path)
      assert.is(await textOf(await csv()), (await http(ctx, 'GET', path, { accept: 'text/csv' })).text, path)
    }
    const margin = await billing.reports.margin({ from: '2026-01-01', to: '2026-02-28', groupBy: 'month' })
    assert.equal(margin.rows.map((r) => [r.month, r.revenue, r.cost]), [['2026-01', 50, 20]])
    await same(() => billing.reports.margin({ from: '2026-01-01', to: '2026-02-28', groupBy: 'month' }), () => billing.reports.margin({ from: '2026-01-01', to: '2026-02-28', groupBy: 'month' }, { format: 'csv' }), '/reports/margin?from=2026-01-01&to=2026-02-28&groupBy=month')
    await same(() => billing.reports.margin(), () => billing.reports.margin(undefined, { format: 'csv' }), '/reports/margin')

    const statements = await billing.reports.commissionStatements({ billingRunID: runID })
    assert.equal(statements.statements.map((s) => [s.holder, s.total]), [['Alice Morgan', 3]])
    await same(() => billing.reports.commissionStatements({ billingRunID: runID }), () => billing.reports.commissionStatements({ billingRunID: runID }, { format: 'csv' }), `/commissionStatements?billingRunID=${runID}`)
    await same(() => billing.reports.commissionStatements({ billingRunID: runID, holder: 'Ben Carter' }), () => billing.reports.commissionStatements({ billingRunID: runID, holder: 'Ben Carter' }, { format: 'csv' }), `/commissionStatements?billingRunID=${runID}&holder=Ben%20Carter`)

    const journal = await billing.reports.runJournal(runID)
    assert.equal([journal.billingRunID, journal.lines.length, journal.totals.net], [runID, 1, 50])
    await same(() => billing.reports.runJournal(runID), () => billing.reports.runJournal(runID, { format: 'csv' }), `/billingRuns/${runID}/journal`)
    await same(() => billing.reports.journal({ from: '2026-02-01', to: '2026-02-28' }), () => billing.reports.journal({ from: '2026-02-01', to: '2026-02-28' }, { format: 'csv' }), '/journal?from=2026-02-01&to=2026-02-28')
    await same(() => billing.reports.journal(), () => billing.reports.journal({}, { format: 'csv' }), '/journal')

    // Refused alike, parameters checked as the query string is.
    const refusals: [() => Promise<unknown>, string][] = [
      // @ts-expect-error not a grouping: a TypeScript caller is told when compiling, a JavaScript one at run time
      [() => billing.reports.margin({ groupBy: 'planet' }), '/reports/margin?groupBy=planet'],
      [() => billing.reports.margin({ from: '2026-02-30' }), '/reports/margin?from=2026-02-30'],
      [() => billing.reports.journal({ from: '2026-03-01', to: '2026-02-01' }), '/journal?from=2026-03-01&to=2026-02-01'],
      // @ts-expect-error a parameter the report does not take
      [() => billing.reports.journal({ groupBy: 'month' }), '/journal?groupBy=month'],
      // @ts-expect-error billingRunID is required
      [() => billing.reports.commissionStatements({}), '/commissionStatements'],
      [() => billing.reports.commissionStatements({ billingRunID: 'abc' }), '/commissionStatements?billingRunID=abc'],
      [() => billing.reports.commissionStatements({ billingRunID: '999' }), '/commissionStatements?billingRunID=999'],
      [() => billing.reports.runJournal('999'), '/billingRuns/999/journal'],
    ]
    for (const [call, path] of refusals) assert.equal(await failure(call), await errorOf(ctx, 'GET', path), path)
    // @ts-expect-error a format neither JSON nor CSV
    assert.is((await failure(() => billing.reports.margin({}, { format: 'pdf' }))).error_code, 400103)
  })

  test('disaster-recovery files: the list, metadata and the archive streamed, as the API answers; unknown refused alike', async (ctx) => {
    const { billing } = ctx
    const page = await billing.disasterRecoveryFiles.list()
    assert.is(page.items.length, 1)
    assert.equal(page.items.map((f) => billing.toWire('disasterRecoveryFiles', f)), (await http(ctx, 'GET', '/disasterRecoveryFiles')).body)
    const [file] = page.items
    assert.equal(billing.toWire('disasterRecoveryFiles', await billing.disasterRecoveryFiles.get(file.id)), (await http(ctx, 'GET', `/disasterRecoveryFiles/${file.id}`)).body)
    const archive = await billing.disasterRecoveryFiles.archive(file.id)
    const bytes = new Uint8Array(await new Response(archive.stream).arrayBuffer())
    const res = await ctx.billing.http.request(`${BASE}/disasterRecoveryFiles/${file.id}`, { headers: { authorization: `Bearer ${ctx.key}`, accept: 'application/x-7z-compressed' } })
    const served = new Uint8Array(await res.arrayBuffer())
    assert.is(archive.filename, file.filename)
    assert.is(archive.size, bytes.length)
    assert.equal([...bytes.subarray(0, 6)], [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])
    assert.ok(Buffer.from(bytes).equals(Buffer.from(served)))
    for (const call of [() => billing.disasterRecoveryFiles.get('999'), () => billing.disasterRecoveryFiles.archive('999')]) {
      assert.equal(await failure(call), await errorOf(ctx, 'GET', '/disasterRecoveryFiles/999'))
    }
  })

  /** The API's error for a request, as `failure` gives the library's. */
  async function errorOf(ctx: Ctx, method: string, path: string, options: Parameters<typeof http>[3] = {}) {
    const r = await http(ctx, method, path, options)
    return { error_code: r.body?.error_code, error: r.body?.error }
  }

  test.run()
}
