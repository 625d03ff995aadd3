import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { addManualTransaction } from '../../core/billing/manual-transactions.js'
import { newCustomer, newFeature, onBillingSteps } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * `Store.pipelinedTransaction`, a billing run's step: on Postgres its invoices are sent without
 * waiting for their answers and the next batch is read beside the transaction while they are
 * written; elsewhere it is an ordinary transaction. Either way a step is all-or-nothing, and a
 * write the database refuses is the error the run reports. Written once, run against every database.
 */
const CUSTOMERS = 6

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; customers: string[] }>(`billing steps planned while the last batch is written [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T00:00:00Z' })
    ctx.customers = []
    for (let i = 0; i < CUSTOMERS; i++) {
      const c = await newCustomer(ctx.h)
      ctx.customers.push(c)
      await newFeature(ctx.h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    }
  })
  test.after(async (ctx) => ctx.h.close())

  const request = async (h: Harness, cutoffDate: string) => {
    const r = await h.request('POST', '/billingRuns', { cutoffDate, invoiceDate: cutoffDate, status: 'Requested' })
    assert.is(r.status, 201, JSON.stringify(r.body))
    return r.body.id as string
  }
  const count = async (h: Harness, table: 'invoices' | 'transactions') =>
    Number((await h.platform.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  const status = async (h: Harness, run: string) => (await h.request('GET', `/billingRuns/${run}`)).body.status

  test('reads beside the transaction where the database pipelines (Postgres), and in it elsewhere', async ({ h, customers }) => {
    const store = h.platform.context.store
    const [customer] = customers
    const seen = await store.pipelinedTransaction(async (trx, reads) => {
      await trx.creditControl.setCreditAlerts(customer, ['creditLimit'])
      return (await reads.repository('customers').get(customer))?.creditAlerts
    })
    assert.equal(seen, target === 'postgres' ? [] : ['creditLimit'], 'Postgres reads what is committed; SQLite reads in the transaction')
    assert.equal((await store.repository('customers').get(customer))?.creditAlerts, ['creditLimit'], 'committed with the transaction')
    await store.creditControl.setCreditAlerts(customer, [])
  })

  test('a run reads its pages beside the transaction wherever there is another connection (Postgres, a SQLite file), and in it in memory', async ({ h, customers }) => {
    const store = h.platform.context.store
    const [customer] = customers
    const before = String(BigInt(customer) - 1n)
    const [{ feature }] = await store.runSource.featuresOf(before, 1)
    const seen = await store.pipelinedTransaction(async (trx, reads) => {
      await trx.repository('features').update(feature.id, { description: 'changed in the transaction' })
      // Asked together, as a step asks for its next page.
      const [page, features] = await Promise.all([reads.runSource.customersAfter(before, 1), reads.runSource.featuresOf(before, 1)])
      assert.equal(
        page.map((c) => c.id),
        [customer],
      )
      assert.equal(
        features.map((f) => f.feature.id),
        [feature.id],
        "the features of the page's customers",
      )
      return { page: features[0].feature.description, elsewhere: (await reads.repository('features').get(feature.id))?.description }
    })
    assert.is(seen.page, target === 'sqlite-memory' ? 'changed in the transaction' : feature.description, 'what is committed, on another connection')
    assert.is(seen.elsewhere, target === 'postgres' ? feature.description : 'changed in the transaction', "a SQLite file's other reads are the transaction's own")
    await store.repository('features').update(feature.id, { description: feature.description })
  })

  test('a batch whose writes fail once sent fails its whole step: nothing of it is kept, and the next run bills everyone once', async ({ h }) => {
    const run = await request(h, '2026-01-31')
    const store = h.platform.context.store
    let raised = 0
    const restore = onBillingSteps(store, (trx) => {
      const raise = trx.ledger.raiseInvoices.bind(trx.ledger)
      trx.ledger.raiseInvoices = async (...args) => {
        const result = await raise(...args)
        if (++raised !== 2) return result
        // The second batch's writes, as if the database refused them after they were sent.
        const written = result.written.then(() => Promise.reject(new Error('injected: the batch was refused')))
        written.catch(() => undefined)
        return { ...result, written }
      }
    })
    const error = await runNextBillingRun(h.platform.context, { batchSize: 2 })
      .then(() => null, (e: Error) => e)
      .finally(restore)
    assert.match(error?.message ?? '', /injected/, 'the failed write is the error the run reports')
    assert.is(await status(h, run), 'Failed')
    assert.is(await count(h, 'invoices'), 0, 'the first batch, in the same step, is rolled back with the second')
    assert.is(await count(h, 'transactions'), 0)
    const again = await request(h, '2026-01-31')
    assert.is((await runNextBillingRun(h.platform.context, { batchSize: 2 }))?.status, 'Complete')
    assert.is(await status(h, again), 'Complete')
    assert.is(await count(h, 'invoices'), CUSTOMERS, 'one invoice each')
    assert.is(await count(h, 'transactions'), CUSTOMERS, 'one charge each')
  })

  test('an insert the database refuses is the error reported, not the statements it refused after it', async ({ h }) => {
    const db = h.platform.database.db
    // The invoices' ID generator moved back: the next invoices a run reserves IDs for already exist.
    const moveBack = () =>
      target === 'postgres'
        ? sql`select setval(pg_get_serial_sequence('invoices', 'id'), 1)`.execute(db)
        : sql`update sqlite_sequence set seq = 1 where name = 'invoices'`.execute(db)
    const restore = () =>
      target === 'postgres'
        ? sql`select setval(pg_get_serial_sequence('invoices', 'id'), (select max(id) from invoices))`.execute(db)
        : sql`update sqlite_sequence set seq = (select max(id) from invoices) where name = 'invoices'`.execute(db)
    const before = await count(h, 'invoices')
    const run = await request(h, '2026-02-28')
    await moveBack()
    const error = (await runNextBillingRun(h.platform.context, { batchSize: 2 }).then(() => null, (e: unknown) => e)) as { code?: string } | null
    await restore()
    assert.ok(error, 'the run fails')
    assert.ok(['23505', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes(String(error?.code)), `a duplicate key, not ${error?.code}`)
    assert.is(await status(h, run), 'Failed')
    assert.is(await count(h, 'invoices'), before, 'nothing of the failed step')
    await request(h, '2026-02-28')
    assert.is((await runNextBillingRun(h.platform.context, { batchSize: 2 }))?.status, 'Complete')
    assert.is(await count(h, 'invoices'), before + CUSTOMERS)
  })

  test('an allocation write the database refuses fails its step: the credit stays held, and the next run allocates it', async ({ h }) => {
    const { db, dialect } = h.platform.database
    const c = await newCustomer(h)
    await newFeature(h, c, { startDate: '2026-03-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    const paid = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: 5, transactionDate: '2026-03-02' })
    assert.is(paid.status, 201, JSON.stringify(paid.body))
    const held = async () => (await h.platform.context.store.receivables.heldCredits([c])).get(c)
    assert.is(await held(), 50_000n, '5.00 held: no invoice to pay yet')
    // With the step's other writes sent before it (Postgres), the refused insert is the one answered last.
    const statements =
      dialect.name === 'sqlite'
        ? ["create trigger refuse_allocation before insert on invoice_allocations begin select raise(abort, 'refused by the test'); end"]
        : [
            "create function refuse_allocation() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$",
            'create trigger refuse_allocation before insert on invoice_allocations for each row execute function refuse_allocation()',
          ]
    for (const statement of statements) await sql.raw(statement).execute(db)
    const invoicesOf = async () => (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    const run = await request(h, '2026-03-31')
    try {
      const error = await runNextBillingRun(h.platform.context, { batchSize: 2 }).then(() => null, (e: Error) => e)
      assert.match(error?.message ?? '', /refused by the test/)
    } finally {
      await sql.raw('drop trigger refuse_allocation' + (dialect.name === 'sqlite' ? '' : ' on invoice_allocations')).execute(db)
      if (dialect.name !== 'sqlite') await sql.raw('drop function refuse_allocation()').execute(db)
    }
    assert.is(await status(h, run), 'Failed')
    assert.is((await invoicesOf()).length, 0, 'nothing of its step: the steps before it are committed')
    assert.is(await held(), 50_000n, 'the credit is still held')
    await request(h, '2026-03-31')
    assert.is((await runNextBillingRun(h.platform.context, { batchSize: 2 }))?.status, 'Complete')
    assert.is(await held(), 0n)
    assert.equal((await invoicesOf()).map((i) => [i.totalAmount, i.amountPaid]), [[10, 5]], 'the held 5.00 pays its invoice')
  })

  test('a step reads the next page before it writes the batch in hand, but not the next step’s first page: that is read once the next step has locked its customers', async ({ h }) => {
    await request(h, '2026-04-30')
    const order: string[] = []
    const restore = onBillingSteps(h.platform.context.store, (trx, reads) => {
      const read = reads.runSource.customersAfter.bind(reads.runSource)
      reads.runSource.customersAfter = async (after, limit, last) => {
        order.push(`read after ${after}`)
        return read(after, limit, last)
      }
      const raise = trx.ledger.raiseInvoices.bind(trx.ledger)
      trx.ledger.raiseInvoices = async (invoices, ...rest) => {
        order.push(`write ${invoices.map((i) => i.values.customerID).join(',')}`)
        return raise(invoices, ...rest)
      }
      const advance = trx.runPartitions.advance.bind(trx.runPartitions)
      trx.runPartitions.advance = async (...args) => {
        order.push('commit')
        return advance(...args)
      }
    })
    try {
      // One customer a batch (one feature each), three batches a step.
      await runNextBillingRun(h.platform.context, { batchFeatures: 1 })
    } finally {
      restore()
    }
    const [c1, c2, c3, c4] = (await h.platform.context.store.runSource.customersAfter('0', 4)).map((c) => c.id)
    const before = (c: string) => String(BigInt(c) - 1n)
    // A page read before the commit would be read before the next step's lock (tests/persistence/run-customer-locks.test.ts).
    const expected = [`read after ${before(c1)}`, `read after ${c1}`, `write ${c1}`, `read after ${c2}`, `write ${c2}`, `write ${c3}`, 'commit', `read after ${c3}`, `read after ${c4}`, `write ${c4}`]
    assert.equal(order.slice(0, expected.length), expected)
  })

  test('a next invoice message set after a step read its customers stays for the next invoice', async ({ h }) => {
    const c = await newCustomer(h, { nextInvoiceMessage: 'Price change notice' })
    await newFeature(h, c, { startDate: '2026-05-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    await request(h, '2026-05-31')
    const restore = onBillingSteps(h.platform.context.store, (trx) => {
      const raise = trx.ledger.raiseInvoices.bind(trx.ledger)
      trx.ledger.raiseInvoices = async (invoices, ...rest) => {
        // As a request would between the page's read and the batch's write.
        if (invoices.some((i) => i.values.customerID === c)) await trx.repository('customers').update(c, { nextInvoiceMessage: 'Direct Debit reminder' })
        return raise(invoices, ...rest)
      }
    })
    try {
      assert.is((await runNextBillingRun(h.platform.context, {}))?.status, 'Complete')
    } finally {
      restore()
    }
    const [invoice] = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    assert.is(invoice.invoiceMessage, 'Price change notice', 'the message the page was read with')
    assert.is((await h.request('GET', `/customers/${c}`)).body.nextInvoiceMessage, 'Direct Debit reminder', 'the later message is kept')
  })

  test('a payment made after a step read its customers pays the invoice the step raises', async ({ h }) => {
    const c = await newCustomer(h)
    await newFeature(h, c, { startDate: '2026-06-01', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    await request(h, '2026-06-30')
    const restore = onBillingSteps(h.platform.context.store, (trx) => {
      const raise = trx.ledger.raiseInvoices.bind(trx.ledger)
      trx.ledger.raiseInvoices = async (invoices, ...rest) => {
        // As a request would between the page's read and the batch's write: no invoice yet, so held.
        if (invoices.some((i) => i.values.customerID === c)) await addManualTransaction({ ...h.platform.context, store: trx }, c, { transactionType: 'Payment', amount: 4, transactionDate: '2026-06-15' })
        return raise(invoices, ...rest)
      }
    })
    try {
      assert.is((await runNextBillingRun(h.platform.context, {}))?.status, 'Complete')
    } finally {
      restore()
    }
    const invoices = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    assert.equal(
      invoices.map((i) => [i.totalAmount, i.amountPaid]),
      [[10, 4]],
      'the held 4.00 pays its invoice',
    )
    assert.is((await h.platform.context.store.receivables.heldCredits([c])).get(c), 0n)
  })

  test.run()
}
