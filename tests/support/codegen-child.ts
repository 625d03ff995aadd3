import { openPlatform } from '../../apps/platform/platform.js'
import { FixedClock } from '../../adapters/persistence/system-clock.js'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { codeGenerationAllowed } from '../../core/codegen/generated-function.js'
import { catalogue } from '../../core/fields/catalogue.js'
import { toWire } from '../../core/fields/wire.js'
import { toWireJson } from '../../core/fields/wire-json.js'
import { createItem } from '../../core/resources/resources.js'

/**
 * Run by tests/core/generated-function.test.ts with and without
 * --disallow-code-generation-from-strings: bills a small run on SQLite in memory (row decoding,
 * statement rows, the run's packed reads, ledger inserts, wire objects and JSON, history) and
 * prints what it read back, so the two runs can be compared.
 */
const platform = await openPlatform({ databaseUrl: 'sqlite::memory:', clock: new FixedClock('2026-02-02T10:00:00.000Z') as never })
try {
  const ctx = platform.context
  const customer = await createItem(ctx, catalogue.customers, { lastname: 'Lovelace', creditLimit: '250.00', VATRate: 'Standard 20%' })
  const number = await createItem(ctx, catalogue.numbers, { number: '020 7946 0018' }, { customerID: customer.id })
  await createItem(ctx, catalogue.features, { serviceCharge: '12.50', startDate: '2026-01-01', initialFeatureDiscountScheme: 'First Month Free' }, { customerID: customer.id, numberID: number.id })
  await createItem(ctx, catalogue.features, { totalFeatureValue: '100.00', instalments: 3, startDate: '2026-01-15' }, { customerID: customer.id })
  await createItem(ctx, catalogue.billingRuns, { name: 'January', cutoffDate: '2026-01-31', invoiceDate: '2026-02-01', status: 'Requested' })
  const outcome = await runNextBillingRun(ctx)
  const transactions = await ctx.store.repository('transactions').list({ where: [], limit: 100 })
  const answers = {
    generated: codeGenerationAllowed(),
    outcome,
    customer: toWireJson(catalogue.customers, (await ctx.store.repository('customers').get(customer.id))!),
    features: (await ctx.store.repository('features').list({ where: [], limit: 10 })).map((f) => toWire(catalogue.features, f)),
    transactions: transactions.map((t) => toWireJson(catalogue.transactions, t)),
    history: (await ctx.store.repository('history').list({ where: [], limit: 100 })).map((h) => toWireJson(catalogue.history, h)),
  }
  process.stdout.write(`ANSWERS ${JSON.stringify(answers)}\n`)
} finally {
  await platform.close()
}
