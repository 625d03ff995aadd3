import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { initialHistory } from '../../core/billing/charge-history.js'
import type { ExpectedCharge } from '../../core/billing/expected-charges.js'
import { planFeatureBilling } from '../../core/billing/feature-billing.js'
import { serviceChargeIntervals } from '../../core/billing/periods.js'
import { reconcile, reconcileSlots } from '../../core/billing/reconcile.js'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import type { Money } from '../../core/money/money.js'
import { feature } from '../support/billing-world.js'

/**
 * A feature without ledger rows takes reconcile's first-billing path (no slots, no revision
 * keys). It must give exactly what the slot-by-slot path gives: the same rows, in the same order,
 * with the same revisions, whatever the expected charges look like.
 */
const test = suite('core/billing reconcile: a first billing agrees with the slot-by-slot path')

const day = (n: number) => addDays('2026-01-01' as DateOnly, n)
const transactionType = fc.constantFrom(null, 'Recurring Charge', 'Line Rental', 'Recurring Charge Refund', 'Connection Charge', 'Setup')

// Few distinct slots and dates, so that charges share slots, interleave and repeat natural keys.
const expectedArb: fc.Arbitrary<ExpectedCharge> = fc
  .record({
    kind: fc.constantFrom('recurring' as const, 'connection' as const),
    series: fc.integer({ min: 0, max: 1 }),
    slot: fc.integer({ min: 0, max: 2 }),
    piece: fc.integer({ min: 0, max: 2 }),
    // Now and then a piece outside its slot's period: the order must hold even then.
    stray: fc.constantFrom(0, 0, 0, -40, 40),
    quantity: fc.integer({ min: 0, max: 3 }),
    rate: fc.bigInt({ min: -50_000n, max: 200_000n }),
    style: fc.constantFrom('replace' as const, 'delta' as const),
  })
  .map((r) => ({
    kind: r.kind,
    series: r.series,
    slotStart: day(r.slot * 31),
    periodStart: day(r.slot * 31 + r.piece * 5 + r.stray),
    periodEnd: day(r.slot * 31 + r.piece * 5 + r.stray + 4),
    transactionDate: day(r.slot * 31),
    quantity: r.quantity,
    rate: r.rate as Money,
    amount: (r.rate * BigInt(r.quantity)) as Money,
    cost: (r.rate * BigInt(r.quantity) / 2n) as Money,
    style: r.style,
  }))

test('random expected charges, in any order, with repeated slots and natural keys', () => {
  fc.assert(
    fc.property(fc.array(expectedArb, { maxLength: 8 }), transactionType, transactionType, (expected, service, connection) => {
      const ctx = { feature: feature({ serviceTransactionType: service, connectionTransactionType: connection }), history: [] }
      assert.equal(reconcile(expected, [], ctx), reconcileSlots(expected, [], ctx))
    }),
    { numRuns: 2000 },
  )
})

test('the charges of real features billed for the first time', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...serviceChargeIntervals),
      fc.integer({ min: 0, max: 700 }),
      fc.option(fc.integer({ min: 0, max: 900 }), { nil: null }),
      fc.option(fc.bigInt({ min: 0n, max: 500_000n }), { nil: null }),
      fc.bigInt({ min: 0n, max: 300_000n }),
      fc.integer({ min: 400, max: 1200 }),
      (interval, startDays, endDays, connection, charge, cutoffDays) => {
        const start = day(startDays - 365)
        const f = feature({ interval, startDate: start, endDate: endDays === null ? null : addDays(start, endDays), connectionCharge: connection as Money | null })
        const history = initialHistory(start, charge as Money, 2)
        const plan = planFeatureBilling(f, history, [], { cutoff: day(cutoffDays - 365), chargeable: true })
        assert.equal(plan.diff, reconcileSlots(plan.expected, [], { feature: f, history }))
      },
    ),
    { numRuns: 500 },
  )
})

test.run()
