import { settleAccounts } from '../core/billing/settle-accounts.js'
import type { DateOnly } from '../core/dates/date-only.js'
import { openPlatform } from '../apps/platform/platform.js'
import { parseArgs, scaled } from './support/args.js'
import { openBulkWriter, type BulkColumn } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { seedCustomers } from './support/fixtures.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/**
 * Allocation of 100,000 payments (contract 10.3): 20,000 customers, each with 5 invoices of
 * 120.00 and 5 payments of 100.00 to 150.00, allocated from scratch in pages of 200 customers a
 * transaction, as the invoice-overdue job and a billing run settle them. The floor, measured in
 * the same repetition on a fresh database of the same shape, bulk-inserts as many allocation
 * rows as the allocation wrote: the writes it cannot avoid.
 */
const args = parseArgs()
const report = new Report('allocation', args)
const payments = scaled(100_000, args.scale, 1_000)
const PER_CUSTOMER = 5
const customers = Math.ceil(payments / PER_CUSTOMER)
const STAMP = '2026-01-01T09:00:00.000Z'
const t = (name: string): BulkColumn => ({ name, type: 'text' })
const b = (name: string): BulkColumn => ({ name, type: 'bigint' })
const i = (name: string): BulkColumn => ({ name, type: 'integer' })
const dateOf = (month: number, day: number) => `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`

async function seeded() {
  const db = await openBenchDatabase(args.db, args.keep)
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 0, featuresPerCustomer: 0 })
  const invoiceColumns = [b('id'), b('customerID'), b('billingRunID'), t('invoiceDate'), t('dueDate'), t('overdueDate'), b('netAmount'), b('VATAmount'), b('totalAmount'), b('amountPaid'), b('amountOutstanding'), t('status'), i('suppressed'), t('transactionIDs'), t('createdStamp'), t('updatedStamp')]
  await writer.insert('invoices', invoiceColumns, (function* () {
    let id = 0
    for (let c = 1; c <= customers; c++) {
      for (let k = 1; k <= PER_CUSTOMER; k++) {
        yield [++id, c, k, dateOf(k, 1), dateOf(k, 15), dateOf(k, 15), 1_000_000, 200_000, 1_200_000, 0, 1_200_000, 'Unpaid', 0, '[]', STAMP, STAMP]
      }
    }
  })())
  const paymentColumns = [b('customerID'), t('transactionType'), t('transactionDate'), b('amount'), b('VATAmount'), i('approved'), i('settles'), t('createdStamp'), t('updatedStamp')]
  await writer.insert('transactions', paymentColumns, (function* () {
    for (let n = 0; n < payments; n++) {
      const c = Math.floor(n / PER_CUSTOMER) + 1
      const k = (n % PER_CUSTOMER) + 1
      yield [c, 'Payment', dateOf(k, 10), -(1_000_000 + ((n * 7919) % 500_000)), 0, 0, 1, STAMP, STAMP]
    }
  })())
  await writer.finish(['customers', 'invoices', 'transactions'])
  await writer.close()
  return db
}

async function allocate(): Promise<{ ms: number; rows: number }> {
  const db = await seeded()
  const platform = await openPlatform({ ...db.config, skipMigrations: true })
  try {
    const ids = Array.from({ length: customers }, (_, k) => String(k + 1))
    const start = performance.now()
    for (let k = 0; k < ids.length; k += 200) {
      await platform.context.store.transaction(async (store) => {
        await settleAccounts(store, ids.slice(k, k + 200), '2026-06-30' as DateOnly, STAMP, { act: platform.context })
      })
    }
    const ms = performance.now() - start
    const database = platform.context.store as unknown as { db: { selectFrom(t: string): any } }
    const counted = await database.db.selectFrom('invoice_allocations').select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirst()
    return { ms, rows: Number(counted.n) }
  } finally {
    await platform.close()
    await db.dispose()
  }
}

async function floor(rows: number): Promise<number> {
  const db = await openBenchDatabase(args.db, args.keep)
  try {
    const writer = openBulkWriter(db)
    const start = performance.now()
    await writer.insert('invoice_allocations', [b('invoiceID'), b('customerID'), b('transactionID'), b('amount'), t('allocatedDate')], (function* () {
      for (let n = 0; n < rows; n++) yield [n + 1, Math.floor(n / 7) + 1, n + 1, 1_000_000, '2026-01-10']
    })())
    const ms = performance.now() - start
    await writer.close()
    return ms
  } finally {
    await db.dispose()
  }
}

const results: { ms: number; rows: number; floorMs: number }[] = []
for (let r = 0; r < args.runs; r++) {
  const a = await allocate()
  const floorMs = await floor(a.rows)
  log(`repetition ${r + 1}: ${payments.toLocaleString('en-GB')} payments allocated in ${(a.ms / 1000).toFixed(2)} s (${a.rows.toLocaleString('en-GB')} allocation rows); floor ${(floorMs / 1000).toFixed(2)} s`)
  results.push({ ...a, floorMs })
}
const seconds = median(results.map((x) => x.ms)) / 1000
const floorS = median(results.map((x) => x.floorMs)) / 1000
report.add({
  name: `allocation of ${payments.toLocaleString('en-GB')} payments to ${(customers * PER_CUSTOMER).toLocaleString('en-GB')} invoices`,
  target: 'measured (no target set); ratio = floor / time',
  measured: seconds,
  unit: 's',
  baseline: floorS,
  ratio: floorS / seconds,
  pass: null,
  note: `${results[0].rows.toLocaleString('en-GB')} allocation rows; ${Math.round(payments / seconds).toLocaleString('en-GB')} payments/s`,
})
report.finish({ payments })
