import { sql } from 'kysely'
import * as assert from 'uvu/assert'
import type { Database } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { markOldCallKeys } from '../../adapters/persistence/migrations/0066-old-call-keys.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { KyselyBooks } from '../../adapters/persistence/reports/kysely-books.js'
import { importSnapshot, type SnapshotSource } from '../../adapters/persistence/snapshot/import-snapshot.js'
import { ID_COUNTERS } from '../../adapters/persistence/snapshot/id-counters.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { DateOnly } from '../../core/dates/date-only.js'
import { parseMoney } from '../../core/money/money.js'
import { defaultCommissionPresets, type CommissionPresets } from '../../core/presets/commission-profiles.js'
import { commissionLines } from '../../core/reports/commission-lines.js'
import { activeTargets, connectBare, openTarget } from '../support/targets.js'
import { bareDatabaseSuite, exportedTables } from '../support/bare-databases.js'

/** Migrations that move stored data, run on a database as the version before them left it. */
/** Run 1 completed, run 2 still running: each with an invoice and one charge of customer 1's feature 1. */
async function twoRuns(db: Database['db'], stamp: string): Promise<void> {
  for (const [id, status] of [[1, 'Complete'], [2, 'Running']] as const) {
    await sql`insert into billing_runs (id, name, status, "invoiceDate", "createdStamp", "updatedStamp") values (${id}, ${`run ${id}`}, ${status}, '2026-01-31', ${stamp}, ${stamp})`.execute(db)
    await sql`insert into invoices (id, "customerID", "billingRunID", "invoiceDate", "netAmount", "VATAmount", "totalAmount", status, "createdStamp", "updatedStamp")
      values (${id}, 1, ${id}, '2026-01-31', 500000, 0, 500000, 'Unpaid', ${stamp}, ${stamp})`.execute(db)
    await sql`insert into transactions (id, "customerID", "featureID", kind, "transactionType", "transactionDate", "dateFrom", "dateTo", amount, approved, "invoiceID", "createdStamp", "updatedStamp")
      values (${id}, 1, 1, 'recurring', 'Recurring Charge', '2026-01-01', '2026-01-01', '2026-01-31', 500000, 1, ${id}, ${stamp}, ${stamp})`.execute(db)
  }
}

for (const name of activeTargets()) {
  const test = bareDatabaseSuite(`migrations that move data [${name}]`, name)

  /** Customers 1-3 holding 12.5000, nothing and 0.0007, in a database as 0020 left it. */
  const holding = async (database: Database, schema: string | undefined) => {
    await migrate(database, schema, '0020-rating-lookup-indexes')
    const customer = (id: number, held: number) =>
      sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp", "heldCredit") values (${id}, ${`ACC${id}`}, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ${held})`.execute(database.db)
    await customer(1, 125_000)
    await customer(2, 0)
    await customer(3, 7)
  }
  const heldRows = async (database: Database) =>
    (await sql<{ customerID: unknown; amount: unknown }>`select "customerID", amount from held_credits order by "customerID"`.execute(database.db)).rows.map((r) => [Number(r.customerID), Number(r.amount)])

  test('0021 moves held credit beside the customers, a row for each customer holding some', async ({ target, database }) => {
    await holding(database, target.schema)
    const { db } = database
    await migrate(database, target.schema)
    assert.equal(await heldRows(database), [[1, 125_000], [3, 7]])
    const columns = await database.dialect.describeTable(db, 'customers')
    assert.not.ok(columns.columns.includes('heldCredit'), 'the column is gone')
    const store = new KyselyStore(db, database.dialect, resourcesByName)
    assert.equal([...(await store.receivables.heldCredits(['1', '2', '3'])).values()], [125_000n, 0n, 7n], 'as money: 12.5000, nothing, 0.0007')
  })

  test('an archive from before 0021 restores its held credit into held_credits', async ({ target, database }) => {
    await holding(database, target.schema)
    // A call keyed as imports keyed them before 0066.
    await sql`insert into calls (id, "customerID", "startTime", cost, rated, deleted, fingerprint, "createdStamp", "updatedStamp")
      values (12, 1, '2026-01-10T10:00:00.000Z', 100, 1, 0, 'f12', '2026-01-05T00:00:00.000Z', '2026-01-05T00:00:00.000Z')`.execute(database.db)
    // The mark of a feature deleted before deletes took marks with them (0077).
    await sql`insert into ledger_reconciled ("featureID", inputs) values (9, 'gone')`.execute(database.db)
    // A number over its limit, acted on then: its customer's alert is raised (0083).
    await sql`update customers set "creditAlerts" = '["numberCreditLimit"]' where id = 1`.execute(database.db)
    await sql`insert into numbers (id, "customerID", number, "creditLimit") values (5, 1, '0161 777 0005', 10000)`.execute(database.db)
    const tables = await exportedTables(database)
    const to = openTarget(name)
    const restored = await connectBare(to)
    try {
      await migrate(restored, to.schema)
      // An archive that old has no ID counters: the restored IDs alone move the generators on.
      const old = tables.filter(({ table }) => table !== ID_COUNTERS)
      const sources: SnapshotSource[] = old.map(({ table, records }) => ({ table, records: async function* () { yield* records } }))
      const summary = await importSnapshot(restored, sources)
      assert.ok(summary.newerMigrations.includes('0021-held-credits'), 'the archive is from before 0021 (and every later migration)')
      assert.equal(await heldRows(restored), [[1, 125_000], [3, 7]])
      const customers = await sql<{ n: unknown }>`select count(*) as n from customers`.execute(restored.db)
      assert.is(Number(customers.rows[0].n), 3)
      assert.equal(await restored.dialect.reserveIds(restored.db, 'customers', 1), [4n], 'the next customer ID follows the restored ones')
      assert.is(await new KyselyStore(restored.db, restored.dialect, resourcesByName).rating.oldKeysThrough(), '12', 'its calls are marked as keyed the old way')
      const marks = await sql<{ n: unknown }>`select count(*) as n from ledger_reconciled`.execute(restored.db)
      assert.is(Number(marks.rows[0].n), 0, 'the mark of a feature deleted before 0077 is not restored')
      const over = await sql<{ o: unknown }>`select "overCreditLimit" as o from numbers where id = 5`.execute(restored.db)
      assert.is(Number(over.rows[0].o), 1, 'a number of a customer with numberCreditLimit raised is marked over its limit, as by 0083')
    } finally {
      await restored.close()
      await to.dispose()
    }
  })

  test('0045: calls billed before keep the transaction stamped on them; unbilled ones go to the next run', async ({ target, database }) => {
    await migrate(database, target.schema, '0041-carrier-bills')
    const { db } = database
    const stamp = '2026-01-05T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    await sql`insert into transactions (id, "customerID", "transactionType", "transactionDate", "dateFrom", "dateTo", amount, approved, "createdStamp", "updatedStamp")
      values (7, 1, 'Call Charges', '2026-01-31', '2026-01-10', '2026-01-20', 200, 0, ${stamp}, ${stamp})`.execute(db)
    const call = (id: number, start: string, transactionID: number | null) =>
      sql`insert into calls (id, "customerID", "startTime", cost, rated, deleted, "transactionID", fingerprint, "createdStamp", "updatedStamp")
        values (${id}, 1, ${start}, 100, 1, 0, ${transactionID}, ${`f${id}`}, ${stamp}, ${stamp})`.execute(db)
    await call(1, '2026-01-10T10:00:00.000Z', 7)
    await call(2, '2026-01-20T10:00:00.000Z', 7)
    // Imported after that run, inside its dates: unbilled.
    await call(3, '2026-01-15T10:00:00.000Z', null)
    await migrate(database, target.schema)
    const store = new KyselyStore(db, database.dialect, resourcesByName)
    const calls = await store.repository('calls').list({ where: [], limit: 10 })
    assert.equal(calls.map((c) => [c.id, c.transactionID]), [['1', '7'], ['2', '7'], ['3', null]])
    const mark = await store.callMarks.advance()
    assert.equal((await store.runSource.unbilledCalls(['1'], '2026-02-01T00:00:00.000Z', mark, null)).map((c) => c.id), ['3'])
  })

  test('0066: the calls stored before it are those whose keys an import still looks for; none on a database without calls', async ({ target, database }) => {
    await migrate(database, target.schema, '0064-callback-receipts')
    const { db } = database
    const stamp = '2026-01-05T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    for (const id of [4, 9]) {
      await sql`insert into calls (id, "customerID", "startTime", cost, rated, deleted, fingerprint, "createdStamp", "updatedStamp")
        values (${id}, 1, '2026-01-10T10:00:00.000Z', 100, 1, 0, ${`f${id}`}, ${stamp}, ${stamp})`.execute(db)
    }
    await migrate(database, target.schema)
    const store = new KyselyStore(db, database.dialect, resourcesByName)
    assert.is(await store.rating.oldKeysThrough(), '9')
    assert.equal([...(await store.rating.storedFingerprints(['f4', 'f9', 'f5'], { from: stamp as never, to: '2026-02-01T00:00:00.000Z' as never }, '4'))], ['f4'])
    // Migrated without calls: no mark, and the database stays empty for a restore.
    await sql`delete from calls`.execute(db)
    await sql`delete from old_call_keys`.execute(db)
    await markOldCallKeys(db)
    assert.is(await store.rating.oldKeysThrough(), null)
  })

  test('0046: the rows of drafts made before are stored approved, and still read unapproved until approval', async ({ target, database }) => {
    await migrate(database, target.schema, '0045-call-coverage')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    const invoice = (id: number, status: string, number: string | null) =>
      sql`insert into invoices (id, "customerID", "billingRunID", "invoiceDate", "netAmount", "VATAmount", "totalAmount", status, "invoiceNumber", "createdStamp", "updatedStamp")
        values (${id}, 1, ${id}, '2026-01-31', 100, 0, 100, ${status}, ${number}, ${stamp}, ${stamp})`.execute(db)
    await invoice(1, 'Unpaid', 'INV-000001')
    await invoice(2, 'Draft', null)
    const row = (id: number, invoiceID: number | null, approved: number) =>
      sql`insert into transactions (id, "customerID", "transactionType", "transactionDate", amount, approved, "invoiceID", "createdStamp", "updatedStamp")
        values (${id}, 1, 'Installation', '2026-01-10', 100, ${approved}, ${invoiceID}, ${stamp}, ${stamp})`.execute(db)
    await row(1, 1, 1)
    await row(2, 2, 0)
    await row(3, null, 0)
    await migrate(database, target.schema)
    const stored = (await sql<{ id: unknown; approved: unknown }>`select id, approved from transactions order by id`.execute(db)).rows.map((r) => [Number(r.id), Number(r.approved)])
    assert.equal(stored, [[1, 1], [2, 1], [3, 0]])
    const store = new KyselyStore(db, database.dialect, resourcesByName)
    const read = await store.repository('transactions').list({ where: [], limit: 10 })
    assert.equal(read.map((t) => [t.id, t.approved]), [['1', true], ['2', false], ['3', false]])
  })

  test('0060: the invoices already raised get their journal lines, by account code and VAT rate', async ({ target, database }) => {
    await migrate(database, target.schema, '0058-month-partitions')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    await sql`insert into numbers (id, "customerID", "number", "createdStamp", "updatedStamp") values (1, 1, '01632960001', ${stamp}, ${stamp})`.execute(db)
    // Two features of the number set a calls code: its call charges post under the least.
    for (const [id, code] of [[1, '4200'], [2, '4100']] as const)
      await sql`insert into features (id, "customerID", "numberID", "callsTransactionCode", "createdStamp", "updatedStamp") values (${id}, 1, 1, ${code}, ${stamp}, ${stamp})`.execute(db)
    await sql`insert into invoices (id, "customerID", "invoiceDate", "netAmount", "VATAmount", "totalAmount", status, "createdStamp", "updatedStamp")
      values (1, 1, '2026-01-31', 0, 0, 0, 'Unpaid', ${stamp}, ${stamp})`.execute(db)
    const row = (id: number, type: string, code: string | null, rate: string | null, amount: number, vat: number, invoiceID: number | null) =>
      sql`insert into transactions (id, "customerID", "numberID", "transactionType", "transactionDate", amount, "VATRate", "VATAmount", "accountCode", approved, "invoiceID", "createdStamp", "updatedStamp")
        values (${id}, 1, 1, ${type}, '2026-01-10', ${amount}, ${rate}, ${vat}, ${code}, 1, ${invoiceID}, ${stamp}, ${stamp})`.execute(db)
    await row(1, 'Recurring Charge', '4000', 'S', 100_000, 20_000, 1)
    await row(2, 'Recurring Charge', '4000', 'S', 50_000, 10_000, 1)
    await row(3, 'Recurring Charge', '4000', 'Z', 30_000, 0, 1)
    await row(4, 'Call Charges', null, 'S', 7_000, 1_400, 1)
    await row(5, 'Installation', '', null, 2_000, 0, 1)
    await row(6, 'Recurring Charge', '4000', 'S', 90_000, 18_000, null)
    await migrate(database, target.schema)
    const lines = (await sql<{ c: unknown; r: unknown; n: unknown; v: unknown }>`select "accountCode" as c, "VATRate" as r, net as n, "VATAmount" as v from invoice_journal_lines where "invoiceID" = 1 order by "accountCode", "VATRate"`.execute(db)).rows
    assert.equal(
      lines.map((l) => [l.c, l.r, Number(l.n), Number(l.v)]),
      [['4000', 'S', 150_000, 30_000], ['4000', 'Z', 30_000, 0], ['4100', 'S', 7_000, 1_400], ['Installation', '', 2_000, 0]],
    )
    const all = await sql<{ n: unknown }>`select count(*) as n from invoice_journal_lines`.execute(db)
    assert.is(Number(all.rows[0].n), 4, 'a row on no invoice has no line')
  })

  test('0063: a margin by customer over rows written before it is the same, read from the new index', async ({ target, database }) => {
    await migrate(database, target.schema, '0060-invoice-journal')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    for (const id of [1, 2]) await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (${id}, ${`ACC${id}`}, ${stamp}, ${stamp})`.execute(db)
    const row = (id: number, customer: number, date: string, amount: number, cost: number | null, approved: number, settles: number) =>
      sql`insert into transactions (id, "customerID", "transactionType", "transactionDate", amount, "carrierCost", approved, settles, "createdStamp", "updatedStamp")
        values (${id}, ${customer}, 'Installation', ${date}, ${amount}, ${cost}, ${approved}, ${settles}, ${stamp}, ${stamp})`.execute(db)
    await row(1, 1, '2026-01-10', 100_000, 40_000, 1, 0)
    await row(2, 1, '2026-01-31', 50_000, null, 1, 0)
    await row(3, 1, '2026-02-01', 70_000, 10_000, 1, 0) // after the range
    await row(4, 1, '2026-01-15', -30_000, null, 1, 1) // a payment
    await row(5, 2, '2026-01-01', 20_000, 5_000, 0, 0) // not approved
    await row(6, 2, '2026-01-20', 10_000, 2_000, 1, 0)
    await migrate(database, target.schema)
    const indexes = (await sql<{ name: string }>`${database.dialect.name === 'postgres' ? sql`select indexname as name from pg_indexes where tablename = 'transactions' and schemaname = current_schema()` : sql`select name from sqlite_master where type = 'index' and tbl_name = 'transactions'`}`.execute(db)).rows.map((r) => r.name)
    assert.ok(indexes.includes('transactions_margin_idx'))
    assert.not.ok(indexes.includes('transactions_books_idx'))
    const store = new KyselyStore(db, database.dialect, resourcesByName)
    const pages: [string | null, number, number][] = []
    for await (const page of store.books.margin({ from: '2026-01-01' as DateOnly, to: '2026-01-31' as DateOnly }, 'customer')) for (const s of page) pages.push([s.key, Number(s.revenue), Number(s.cost)])
    assert.equal(pages, [['1', 150_000, 40_000], ['2', 10_000, 2_000]])
  })

  test("0061: a run's journal, read through the accounts index made over customers already stored, names the same accounts", async ({ target, database }) => {
    await migrate(database, target.schema, '0060-invoice-journal')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "accountingID", "createdStamp", "updatedStamp") values (1, 'ACC1', 'LEDGER-1', ${stamp}, ${stamp}), (2, 'ACC2', '', ${stamp}, ${stamp}), (3, 'ACC3', null, ${stamp}, ${stamp})`.execute(db)
    for (const id of [1, 2, 3]) {
      await sql`insert into invoices (id, "customerID", "billingRunID", "invoiceDate", "netAmount", "VATAmount", "totalAmount", status, "invoiceNumber", "createdStamp", "updatedStamp")
        values (${id}, ${id}, 1, '2026-01-31', 15000, 3000, 18000, 'Unpaid', ${`INV-${id}`}, ${stamp}, ${stamp})`.execute(db)
      await sql`insert into invoice_journal_lines ("invoiceID", "accountCode", "VATRate", net, "VATAmount") values (${id}, '4000', 'Standard 20%', 15000, 3000)`.execute(db)
    }
    await migrate(database, target.schema)
    const books = new KyselyBooks(db, database.dialect)
    const accounts: unknown[] = []
    for await (const page of books.journal({ billingRunID: '1' })) page.forEach((d) => accounts.push(d.account))
    assert.equal(accounts, ['LEDGER-1', 'ACC2', 'ACC3'])
    let csv = ''
    for await (const page of books.journal({ billingRunID: '1' }, true)) if ('csv' in page) csv += page.csv
    assert.equal(csv.split('\r\n').map((l) => l.split(',')[4]), ['LEDGER-1', 'ACC2', 'ACC3', undefined])
  })

  test('0070: an ignore-traffic entry of a number reinstated since ends on its reinstate; one of a number still dropped stays open', async ({ target, database }) => {
    await migrate(database, target.schema, '0069-session-password-receipt-age')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    for (const [id, dropped, updatedDate] of [[1, 0, '2026-02-01'], [2, 1, '2026-01-10']] as const) {
      await sql`insert into numbers (id, "customerID", number, "isDropped", "updatedDate", "createdStamp", "updatedStamp") values (${id}, 1, ${`0163296000${id}`}, ${dropped}, ${updatedDate}, ${stamp}, ${stamp})`.execute(db)
      await sql`insert into ignore_traffic (id, "customerID", "numberID", number, type, "fromDate") values (${id}, 1, ${id}, ${`0163296000${id}`}, 'All Traffic', '2026-01-10')`.execute(db)
    }
    await migrate(database, target.schema)
    const entries = await sql<{ numberID: unknown; reinstatedDate: string | null }>`select "numberID", "reinstatedDate" from ignore_traffic order by id`.execute(db)
    assert.equal(entries.rows.map((r) => [Number(r.numberID), r.reinstatedDate]), [[1, '2026-02-01'], [2, null]])
    assert.ok((await database.dialect.describeTable(db, 'features')).columns.includes('dropGaps'))
  })

  test("0071: runs completed before it keep their rows' commission terms as they were then; a later change of the feature's reaches no completed statement", async ({ target, database }) => {
    await migrate(database, target.schema, '0070-reinstate-gaps')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "commissionHolder", "createdStamp", "updatedStamp") values (1, 'ACC1', 'Alice', ${stamp}, ${stamp})`.execute(db)
    await sql`insert into features (id, "customerID", "startDate", "serviceChargeInterval", "serviceChargeCommission", "serviceChargeCommissionType", "createdStamp", "updatedStamp")
      values (1, 1, '2026-01-01', 'Calendar Monthly', 100000, 'Percentage', ${stamp}, ${stamp})`.execute(db)
    // Run 1 completed, run 2 still running: an invoice and a charge on each.
    await twoRuns(db, stamp)
    await migrate(database, target.schema)
    await sql`update features set "serviceChargeCommission" = 200000, "commissionHolder" = 'Ben'`.execute(db)
    const books = new KyselyBooks(db, database.dialect)
    const rows = async (billingRunID: string, complete: boolean, holder: string) => {
      const out: [string, string | null, number | null][] = []
      for await (const page of books.commissionRows({ billingRunID, complete }, holder)) for (const r of page) out.push([r.transactionID, r.terms.commissionHolder ?? r.customerHolder, r.terms.serviceChargeCommission === null ? null : Number(r.terms.serviceChargeCommission)])
      return out
    }
    assert.equal(await rows('1', true, 'Alice'), [['1', 'Alice', 100000]], 'kept as they were')
    assert.equal(await rows('1', true, 'Ben'), [])
    assert.equal(await rows('2', false, 'Ben'), [['2', 'Ben', 200000]], 'a run not complete reads the terms now')
    const holders: string[] = []
    for await (const page of books.commissionHolders({ billingRunID: '1', complete: true })) holders.push(...page)
    assert.equal(holders, ['Alice'])
  })

  test("0071 makes commission_terms as it shipped: a term added to the reports' lists later is a later migration's column, not 0071's", async ({ target, database }) => {
    await migrate(database, target.schema, '0071-commission-terms')
    const { columns } = await database.dialect.describeTable(database.db, 'commission_terms')
    assert.equal(columns, [
      'billingRunID', 'transactionID', 'featureID', 'kind', 'customerID', 'accountNumber', 'customerHolder', 'commissionReferenceDate', 'saleType', 'holder',
      'commissionHolder', 'connectionChargeCommissionType', 'serviceChargeCommissionType', 'commissionHolderID2', 'connectionChargeCommissionType2', 'serviceChargeCommissionType2',
      'connectionChargeCommissionProfile', 'serviceChargeCommissionProfile', 'callChargeCommissionProfile', 'serviceChargeInterval', 'startDate',
      'connectionChargeCommission', 'serviceChargeCommission', 'connectionChargeCommission2', 'serviceChargeCommission2',
    ])
  })

  test('0074: deliveries attempted before keep when their retries count from: the one attempt made, or their recording', async ({ target, database }) => {
    await migrate(database, target.schema, '0072-event-numbers')
    const { db } = database
    for (const [id, attempts, status] of [[1, 0, 'Pending'], [2, 1, 'Pending'], [3, 3, 'Pending'], [4, 1, 'Sent']] as const) {
      await sql`insert into invoice_deliveries (id, "invoiceID", "customerID", channel, recipient, "billType", status, attempts, "createdStamp", "updatedStamp")
        values (${id}, 1, 1, 'email', 'a@example.com', 'PDF', ${status}, ${attempts}, '2026-02-01T09:00:00.000Z', ${`2026-02-0${id + 1}T09:00:00.000Z`})`.execute(db)
    }
    await migrate(database, target.schema)
    const rows = await sql<{ id: unknown; firstAttemptStamp: string | null }>`select id, "firstAttemptStamp" from invoice_deliveries order by id`.execute(db)
    assert.equal(rows.rows.map((r) => [Number(r.id), r.firstAttemptStamp]), [
      [1, null],
      [2, '2026-02-03T09:00:00.000Z'],
      [3, '2026-02-01T09:00:00.000Z'],
      [4, '2026-02-05T09:00:00.000Z'],
    ])
  })

  test("0077: the marks of features deleted before go; a stored feature's mark stays", async ({ target, database }) => {
    await migrate(database, target.schema, '0076-session-pin')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp") values (1, 'ACC1', ${stamp}, ${stamp})`.execute(db)
    for (const id of [1, 2]) await sql`insert into features (id, "customerID", "createdStamp", "updatedStamp") values (${id}, 1, ${stamp}, ${stamp})`.execute(db)
    for (const id of [1, 3, 4]) await sql`insert into ledger_reconciled ("featureID", inputs) values (${id}, ${`inputs ${id}`})`.execute(db)
    await migrate(database, target.schema)
    const marks = await sql<{ featureID: unknown; inputs: string }>`select "featureID", inputs from ledger_reconciled order by "featureID"`.execute(db)
    assert.equal(marks.rows.map((r) => [Number(r.featureID), r.inputs]), [[1, 'inputs 1']])
  })

  test('0083: the numbers with a limit of a customer whose numberCreditLimit alert is raised are marked over it (acted on then)', async ({ target, database }) => {
    await migrate(database, target.schema, '0082-idempotency-created-index')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    for (const [id, alerts] of [[1, '["creditLimitCalls","numberCreditLimit"]'], [2, '["creditLimitCalls"]']] as const) {
      await sql`insert into customers (id, "accountNumber", "creditAlerts", "createdStamp", "updatedStamp") values (${id}, ${`ACC${id}`}, ${alerts}, ${stamp}, ${stamp})`.execute(db)
    }
    for (const [id, customerID, creditLimit] of [[1, 1, 10_000], [2, 1, null], [3, 2, 10_000]] as const) {
      await sql`insert into numbers (id, "customerID", number, "creditLimit", "createdStamp", "updatedStamp") values (${id}, ${customerID}, ${`0161 777 000${id}`}, ${creditLimit}, ${stamp}, ${stamp})`.execute(db)
    }
    await migrate(database, target.schema)
    const rows = await sql<{ id: unknown; overCreditLimit: unknown }>`select id, "overCreditLimit" from numbers order by id`.execute(db)
    assert.equal(rows.rows.map((r) => [Number(r.id), Number(r.overCreditLimit)]), [[1, 1], [2, 0], [3, 0]])
  })

  test("0079: terms kept before it have no profile percentages and read the presets' by name as before; terms kept after keep the percentages then", async ({ target, database }) => {
    await migrate(database, target.schema, '0070-reinstate-gaps')
    const { db } = database
    const stamp = '2026-02-01T00:00:00.000Z'
    await sql`insert into customers (id, "accountNumber", "commissionHolder", "createdStamp", "updatedStamp") values (1, 'ACC1', 'Alice', ${stamp}, ${stamp})`.execute(db)
    await sql`insert into features (id, "customerID", "startDate", "serviceChargeInterval", "serviceChargeCommissionProfile", "connectionChargeCommissionProfile", "createdStamp", "updatedStamp")
      values (1, 1, '2026-01-01', 'Calendar Monthly', 'Standard Dealer', 'Premium Dealer', ${stamp}, ${stamp})`.execute(db)
    // Run 1 completed before 0079 (0071 kept its terms), run 2 completes after it.
    await twoRuns(db, stamp)
    await migrate(database, target.schema, '0077-orphan-marks')
    await migrate(database, target.schema)
    const kept = await sql<Record<string, unknown>>`select "serviceChargeCommissionProfilePercent" as p, "profilePercentsKept" as k from commission_terms`.execute(db)
    assert.equal(kept.rows.map((r) => [r.p, r.k]), [[null, null]], 'nothing to fill them from: the presets are not in the database')

    const books = new KyselyBooks(db, database.dialect)
    const lines = async (billingRunID: string, presets: CommissionPresets) => {
      const out: [unknown, number, number][] = []
      for await (const page of books.commissionRows({ billingRunID, complete: true }, 'Alice')) {
        for (const r of page) for (const l of commissionLines(r, 'Alice', presets)) out.push([r.terms.profilePercents, Number(l.rate), Number(l.commission)])
      }
      return out
    }
    const at = (percent: string): CommissionPresets => ({ commissionProfiles: { 'Standard Dealer': { percent: parseMoney(percent)! } } })
    assert.equal(await lines('1', at('5')), [[null, 50_000, 25_000]], "run 1 earns at the presets' percentage by name, as before 0079")
    assert.equal(await lines('1', at('8')), [[null, 80_000, 40_000]])

    await sql`update billing_runs set status = 'Complete' where id = 2`.execute(db)
    await books.keepCommissionTerms('2', at('7.5').commissionProfiles)
    const percents = { connectionChargeCommissionProfile: null, serviceChargeCommissionProfile: 75_000n, callChargeCommissionProfile: null }
    assert.equal(await lines('2', at('7.5')), [[percents, 75_000, 37_500]])
    assert.equal(await lines('2', defaultCommissionPresets), [[percents, 75_000, 37_500]], 'kept: the presets changed since reach it no more')
  })

  test.run()
}
