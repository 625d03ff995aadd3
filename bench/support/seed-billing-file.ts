import { copyFileSync } from 'node:fs'
import { createBillingRun } from '../../core/billing/billing-runs.js'
import { openPlatform } from '../../apps/platform/platform.js'
import { openBulkWriter } from './bulk-insert.js'
import { openBenchDatabase } from './database.js'
import { seedCustomers, seedInvoicing } from './fixtures.js'

/**
 * Seeds bench/billing-run.ts's 1,000,000 features into a SQLite file with its run requested, for
 * A/B comparisons of the worker on copies of one database (BATCH_FEATURES sets the batch size):
 *   node --import tsx bench/support/seed-billing-file.ts <file> [--invoicing] [--discounts] [--customers N]
 *   cp <file> run.sqlite && DATABASE_URL=sqlite:run.sqlite node --import tsx --max-semi-space-size=32 bench/support/billing-worker.ts
 */
const out = process.argv[2]
// Five features a customer: 200,000 customers are the bench's 1,000,000 features.
const at = process.argv.indexOf('--customers')
const customers = at > 0 ? Number(process.argv[at + 1]) : 200_000
const db = await openBenchDatabase('sqlite', true)
const writer = openBulkWriter(db)
await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 5 })
if (process.argv.includes('--invoicing')) await seedInvoicing(writer, customers)
if (process.argv.includes('--discounts')) await writer.exec(`update features set "initialFeatureDiscountScheme" = '10% First Year' where id % 10 = 0`)
await writer.close()
const platform = await openPlatform({ ...db.config, skipMigrations: true })
await createBillingRun(platform.context, { name: 'first', cutoffDate: '2026-01-31', invoiceDate: '2026-02-01', status: 'Requested' })
await platform.close()
copyFileSync(db.config.databaseUrl!.slice('sqlite:'.length), out)
console.log('seeded', out)
