import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Values } from '../../core/fields/item.js'
import type { Money } from '../../core/money/money.js'
import { newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Ledger rows written together need not share their fields: every field any row gives is a
 * column of the insert, and a row without it stores null there. Rows whose keys come in another
 * order, or that give more or fewer fields than the row before, are each stored as given (the
 * insert compares key order to skip rows shaped like the one before).
 */

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`ledger rows of different shapes in one write [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T00:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('each row is stored with the fields it gives, and null for the others', async ({ h }) => {
    const customerID = await newCustomer(h)
    const stamp = '2026-01-01T00:00:00.000Z'
    const base = { customerID, transactionType: 'Miscellaneous Charge', transactionDate: '2026-01-05', createdStamp: stamp, updatedStamp: stamp }
    const rows: Values[] = [
      { ...base, amount: 100_000n as Money, description: 'first' },
      { ...base, amount: 200_000n as Money, description: 'same keys' },
      { description: 'keys reordered', amount: 300_000n as Money, ...base },
      { ...base, amount: 400_000n as Money },
      { ...base, amount: 500_000n as Money, description: 'with quantity', quantity: 2 },
      { ...base, amount: 600_000n as Money, description: 'quantity again', quantity: 3 },
      { ...base, amount: 700_000n as Money, VATAmount: 140_000n as Money },
    ]
    await h.platform.context.store.ledger.write({ inserts: rows, updates: [], deletes: [], features: [] })
    const stored = await h.platform.database.db
      .selectFrom('transactions')
      .select(['amount', 'description', 'quantity', 'VATAmount', 'transactionType'])
      .where('customerID', '=', h.platform.database.dialect.encodeId(customerID))
      .orderBy('amount')
      .execute()
    assert.equal(
      stored.map((r) => [String(r.amount), r.description, r.quantity === null ? null : Number(r.quantity), r.VATAmount === null ? null : String(r.VATAmount), r.transactionType]),
      [
        ['100000', 'first', null, null, 'Miscellaneous Charge'],
        ['200000', 'same keys', null, null, 'Miscellaneous Charge'],
        ['300000', 'keys reordered', null, null, 'Miscellaneous Charge'],
        ['400000', null, null, null, 'Miscellaneous Charge'],
        ['500000', 'with quantity', 2, null, 'Miscellaneous Charge'],
        ['600000', 'quantity again', 3, null, 'Miscellaneous Charge'],
        ['700000', null, null, '140000', 'Miscellaneous Charge'],
      ],
    )
  })

  test.run()
}
