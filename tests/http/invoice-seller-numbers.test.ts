import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DateOnly } from '../../core/dates/date-only.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { exportSnapshot, type Cell } from '../../adapters/persistence/snapshot/export-snapshot.js'
import { importSnapshot } from '../../adapters/persistence/snapshot/import-snapshot.js'
import { openPlatform } from '../../apps/platform/platform.js'
import { formatInvoiceNumber, sequenceOf } from '../../core/numbering/invoice-number.js'
import { invoiceNumberFormatProblem } from '../../core/presets/invoice-number-format.js'
import { defaultPresets, mergePresets } from '../../core/presets/presets.js'
import { openHarness, type Harness } from '../support/harness.js'
import { getDocument, worldOn } from '../support/invoice-documents.js'
import { pdfLines } from '../support/pdf-text.js'
import { activeTargets, connectBare, openTarget } from '../support/targets.js'

const utf8 = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8')

const seller = {
  name: 'Northern Lines Telecom Ltd',
  address: ['Unit 4, Mill Yard', 'Leeds'],
  postcode: 'LS1 4AB',
  country: 'United Kingdom',
  VATNumber: 'GB 987 6543 21',
  companyNumber: '01234567',
  email: 'accounts@northern-lines.example',
  phone: '0113 496 0000',
  paymentDetails: 'Sort code 12-34-56, account 87654321',
}

test0()

/** Pure rules: the format's placeholders, and a presets file's seller. */
function test0() {
  const test = suite('invoice numbers and the seller: rules')
  test('formats: {seq:N} pads, {yyyy} and {mm} from the invoice date; a format must hold {seq} once', () => {
    assert.is(formatInvoiceNumber('INV-{seq:6}', 42n, '2026-01-31' as DateOnly), 'INV-000042')
    assert.is(formatInvoiceNumber('{yyyy}/{mm}/{seq:3}', 1234n, '2026-02-01' as DateOnly), '2026/02/1234')
    assert.is(formatInvoiceNumber('N{seq}', 7n, '2026-02-01' as DateOnly), 'N7')
    assert.is(sequenceOf('{yyyy}/{mm}/{seq:3}', '2026/02/1234'), 1234n)
    assert.is(sequenceOf('INV-{seq:6}', 'X-1'), null)
    assert.ok(invoiceNumberFormatProblem('INV-{yyyy}'))
    assert.ok(invoiceNumberFormatProblem('{seq}-{seq}'))
    assert.ok(invoiceNumberFormatProblem('{seq}-{dd}'))
    assert.is(invoiceNumberFormatProblem('{yyyy}-{seq:5}'), null)
  })
  test('presets: the shipped seller is fictitious; a seller without a name and a format without {seq} are refused', () => {
    assert.match(defaultPresets.seller.name, /Example/)
    assert.match(defaultPresets.seller.email!, /example\.com$/)
    assert.is(defaultPresets.invoiceNumberFormat, 'INV-{seq:6}')
    assert.equal(mergePresets({ seller }).seller.name, seller.name)
    assert.throws(() => mergePresets({ seller: { address: ['1 Street'] } }), /seller\.name/)
    assert.throws(() => mergePresets({ seller: { name: ' ' } }), /seller\.name/)
    assert.throws(() => mergePresets({ invoiceNumberFormat: 'INV-{yyyy}' }), /invoiceNumberFormat/)
  })
  test.run()
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`invoices: the seller on the documents, gapless invoice numbers [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-10T09:00:00Z', presets: mergePresets({ seller, invoiceNumberFormat: '{yyyy}-{seq:5}' }) })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('the seller block is above the bill-to block, in the PDF and the HTML page; the number too', async ({ h }) => {
    const world = await worldOn(h, { numbers: 2, calls: 5 })
    assert.is(world.invoice.invoiceNumber, '2026-00001')
    const lines = (await pdfLines((await getDocument(h, world.invoice.id, 'application/pdf')).bytes)).flat()
    const at = (text: string) => lines.findIndex((l) => l.includes(text))
    for (const text of [seller.name, 'Unit 4, Mill Yard, Leeds, LS1 4AB, United Kingdom', 'GB 987 6543 21', '01234567', seller.email, seller.phone, seller.paymentDetails, '2026-00001']) {
      assert.ok(at(text) >= 0, `the PDF prints ${text}`)
    }
    assert.ok(at(seller.name) < at('Bill to'), 'the seller comes before the bill-to block')
    const html = utf8((await getDocument(h, world.invoice.id, 'text/html')).bytes)
    for (const text of [seller.name, 'GB 987 6543 21', '01234567', seller.paymentDetails, 'Invoice 2026-00001']) assert.ok(html.includes(text), `the page shows ${text}`)
    assert.ok(html.indexOf('class="seller"') < html.indexOf('class="bill-to"'), 'seller above bill-to')
  })

  test('numbers run 1..N over runs, in no gaps, never twice; documents show them', async ({ h }) => {
    for (let i = 0; i < 5; i++) await h.request('POST', '/customers', { accountNumber: `SEQ-${i}`, emptyInvoiceAction: 'Send' })
    for (const [cutoff, invoiceDate] of [['2026-01-31', '2026-02-01'], ['2026-02-28', '2026-03-01']]) {
      await h.request('POST', '/billingRuns', { cutoffDate: cutoff, invoiceDate, status: 'Requested' })
      const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
      await scheduler.runNow('billing-poll')
      await scheduler.stop()
    }
    const invoices = (await h.request('GET', '/invoices?limit=1000')).body as any[]
    assert.is(invoices.length, 10)
    const seqs = invoices.map((i) => Number(sequenceOf('{yyyy}-{seq:5}', i.invoiceNumber))).sort((a, b) => a - b)
    assert.equal(seqs, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert.ok(invoices.every((i) => i.invoiceNumber.startsWith(i.invoiceDate.slice(0, 4))))
    const found = (await h.request('GET', `/invoices?invoiceNumber=${invoices[3].invoiceNumber}`)).body
    assert.equal(found.map((i: any) => i.id), [invoices[3].id], 'found by its number')
    const raised = (await h.request('GET', '/events?limit=1000')).body.filter((e: any) => e.type === 'invoice.raised')
    assert.equal(raised.map((e: any) => e.data.invoiceNumber).sort(), invoices.map((i) => i.invoiceNumber).sort(), 'the events carry them')
  })

  test.run()
}

// A second open of an in-memory database is another database: files and Postgres only.
for (const name of activeTargets().filter((t) => t !== 'sqlite-memory')) {
  const test = suite(`invoice numbers: invoices raised before them are numbered once, in ID order [${name}]`)
  test('migration 0022 keeps 1..N for them; the next invoice takes N+1', async () => {
    const target = openTarget(name)
    const database = await connectBare(target)
    try {
      await migrate(database, target.schema, '0021-held-credits')
      await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'OLD-1', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`.execute(database.db)
      for (const id of [5, 3, 9]) {
        await sql`insert into billing_runs (id, name, status, "createdStamp", "updatedStamp") values (${id}, 'old', 'Complete', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`.execute(database.db)
        await sql`insert into invoices (id, "customerID", "billingRunID", "invoiceDate", "totalAmount", "createdStamp", "updatedStamp") values (${id}, 1, ${id}, ${`2025-0${id}-01`}, 0, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`.execute(database.db)
      }
    } finally {
      await database.close()
    }
    const platform = await openPlatform({ databaseUrl: target.databaseUrl, schema: target.schema, presets: mergePresets({ invoiceNumberFormat: 'OLD{seq:2}-{yyyy}' }) })
    try {
      const invoices = await platform.context.store.repository('invoices').list({ where: [], limit: 10 })
      assert.equal(invoices.map((i) => [i.id, i.invoiceNumber, i.sentDate]), [['3', 'OLD01-2025', '2025-03-01'], ['5', 'OLD02-2025', '2025-05-01'], ['9', 'OLD03-2025', '2025-09-01']])
      assert.is(await platform.context.store.transaction((s) => s.invoiceNumbers.take(2)), 4n, 'the counter is past them')
    } finally {
      await platform.close()
      await target.dispose()
    }
  })

  test('an archive from before 0022 restores into a new database; its invoices are numbered at the next start', async () => {
    const source = openTarget(name)
    const old = await connectBare(source)
    const tables: { table: string; records: Cell[][] }[] = []
    try {
      await migrate(old, source.schema, '0021-held-credits')
      await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'OLD-1', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`.execute(old.db)
      for (const id of [1, 2]) {
        await sql`insert into billing_runs (id, name, status, "createdStamp", "updatedStamp") values (${id}, 'old', 'Complete', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`.execute(old.db)
        await sql`insert into invoices (id, "customerID", "billingRunID", "invoiceDate", "totalAmount", "createdStamp", "updatedStamp") values (${id}, 1, ${id}, ${`2025-0${id}-01`}, 0, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`.execute(old.db)
      }
      await exportSnapshot(old, async ({ table, columns, batches }) => {
        const records: Cell[][] = [[...columns]]
        for await (const batch of batches) records.push(...batch)
        tables.push({ table, records })
      })
    } finally {
      await old.close()
      await source.dispose()
    }
    const target = openTarget(name)
    const fresh = await connectBare(target)
    try {
      await migrate(fresh, target.schema)
      await importSnapshot(fresh, tables.map(({ table, records }) => ({ table, records: async function* () { yield* records } })))
    } finally {
      await fresh.close()
    }
    const platform = await openPlatform({ databaseUrl: target.databaseUrl, schema: target.schema })
    try {
      const invoices = await platform.context.store.repository('invoices').list({ where: [], limit: 10 })
      assert.equal(invoices.map((i) => [i.id, i.invoiceNumber, i.sentDate]), [['1', 'INV-000001', '2025-01-01'], ['2', 'INV-000002', '2025-02-01']])
      assert.is(await platform.context.store.transaction((s) => s.invoiceNumbers.take(1)), 3n)
    } finally {
      await platform.close()
      await target.dispose()
    }
  })
  test.run()
}
