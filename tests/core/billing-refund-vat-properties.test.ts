import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import type { BillingFeature } from '../../core/billing/billing-feature.js'
import type { BillingCutoff } from '../../core/billing/feature-billing.js'
import { isEmptyDiff } from '../../core/billing/ledger-row.js'
import { addDays } from '../../core/dates/date-only.js'
import { isBillingError } from '../../core/errors.js'
import type { Money } from '../../core/money/money.js'
import type { ChargeKind, LedgerRow } from '../../core/ports/ledger.js'
import { d, m, feature, config } from '../support/billing-world.js'
import { planChargeChange } from '../../core/billing/charge-change.js'
import { initialHistory, type ChargeVersion } from '../../core/billing/charge-history.js'
import { planFeatureBilling } from '../../core/billing/feature-billing.js'
import type { LedgerDiff } from '../../core/billing/ledger-row.js'
import { ledgerWrites } from '../../core/billing/ledger-writes.js'
import type { Stamp } from '../../core/dates/stamp.js'
import type { RunFeature } from '../../core/ports/run-fields.js'
import { defaultPresets } from '../../core/presets/presets.js'

import { count, featureArb, rate } from '../support/billing-arbitraries.js'
/** Refunds and adjustments carry the VAT of what they correct (contract 5.5, 9.1), over random histories. */
const test = suite('core/billing reconcile: VAT of corrections')

/**
 * A feature's ledger as the database keeps it, VAT included: each difference written by
 * `ledgerWrites` at the feature's VAT rate of the moment, the way a run or an action writes it.
 */
class TaxedLedger {
  rows: LedgerRow[] = []
  history: ChargeVersion[]
  private ids = 0
  constructor(
    public feature: BillingFeature,
    charge: Money,
  ) {
    this.history = initialHistory(feature.startDate!, charge, 1)
  }
  write(diff: LedgerDiff): void {
    const item = { id: 'f', customerID: 'c', numberID: null, serviceID: null, VATRate: this.feature.VATRate } as unknown as RunFeature
    const w = ledgerWrites(item, null, diff, defaultPresets, '2026-01-01T00:00:00.000Z' as Stamp)
    const gone = new Set(w.deletes)
    const set = new Map(w.updates.map((u) => [u.id, u.values]))
    this.rows = this.rows
      .filter((r) => !gone.has(r.id))
      .map((r) => {
        const v = set.get(r.id)
        if (!v) return r
        return { ...r, amount: v.amount ?? r.amount, VATRate: v.VATRate !== undefined ? v.VATRate : r.VATRate, VATAmount: v.VATAmount ?? r.VATAmount, periodEnd: v.dateTo ?? r.periodEnd, transactionDate: v.transactionDate ?? r.transactionDate, carrierCost: v.carrierCost ?? r.carrierCost, quantity: v.quantity !== undefined ? v.quantity : r.quantity, rate: v.rate !== undefined ? v.rate : r.rate }
      })
    for (const v of w.inserts) {
      this.rows.push({
        id: String(++this.ids),
        kind: v.kind as ChargeKind,
        series: v.series!,
        revision: v.revision!,
        transactionType: v.transactionType!,
        transactionDate: v.transactionDate!,
        periodStart: v.dateFrom!,
        periodEnd: v.dateTo!,
        quantity: v.quantity ?? null,
        rate: v.rate ?? null,
        amount: v.amount!,
        carrierCost: v.carrierCost!,
        VATRate: v.VATRate ?? null,
        VATAmount: v.VATAmount!,
        approved: false,
      })
    }
  }
  plan(at: BillingCutoff): LedgerDiff {
    return planFeatureBilling(this.feature, this.history, this.rows, at).diff
  }
}

type TaxOp =
  | { t: 'run'; at: number }
  | { t: 'approve' }
  | { t: 'vat'; rate: string | null }
  | { t: 'change'; mode: 'replace' | 'delta'; offset: number; rate: bigint; count: number }
  | { t: 'drop'; at: number }

const vatRateArb = fc.constantFrom('Standard 20%', 'Reduced 5%', 'Zero Rated', null)
const taxOpArb: fc.Arbitrary<TaxOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('run' as const), at: fc.integer({ min: 0, max: 700 }) }) },
  { weight: 3, arbitrary: fc.constant({ t: 'approve' as const }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('vat' as const), rate: vatRateArb }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('change' as const), mode: fc.constantFrom('replace' as const, 'delta' as const), offset: fc.integer({ min: -300, max: 60 }), rate, count }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('drop' as const), at: fc.integer({ min: 0, max: 700 }) }) },
)

test('property: after any charges, VAT rate changes, price changes and approvals, a full refund nets amount and VAT to zero', () => {
  fc.assert(
    fc.property(featureArb, vatRateArb, fc.array(taxOpArb, { maxLength: 14 }), (f, first, ops) => {
      const w = new TaxedLedger(feature({ startDate: f.start, interval: f.interval, featureCountCommitted: f.committed, serviceChargeCarrier: f.carrier as Money | null, VATRate: first }), f.rate as Money)
      const start = f.start
      for (const op of ops) {
        let planned = op.t === 'run' || op.t === 'drop'
        if (op.t === 'approve') w.rows = w.rows.map((r) => ({ ...r, approved: true }))
        else if (op.t === 'vat') w.feature = { ...w.feature, VATRate: op.rate }
        else if (op.t === 'run') w.write(w.plan({ cutoff: addDays(start, op.at), chargeable: true }))
        else if (op.t === 'drop') {
          w.feature = { ...w.feature, billToDate: addDays(start, op.at), isDropped: true }
          w.write(w.plan({ cutoff: null, chargeable: false }))
        } else {
          try {
            const plan = planChargeChange({ chargeChangeMode: op.mode, dateFrom: addDays(start, Math.max(0, op.offset + 300)), serviceCharge: op.rate as Money, featureCount: op.count }, w.feature, w.history, w.rows, config)
            w.history = plan.history
            w.write(plan.diff)
            planned = true
          } catch (e) {
            if (!isBillingError(e)) throw e // dropped: refused, nothing written (a rate changed before it waits for the next plan)
          }
        }
        // Written with VAT, every plan reconciles, pending rows moved to the rate now: planning again writes nothing.
        if (planned) assert.ok(isEmptyDiff(w.plan({ cutoff: null, chargeable: false })), `again after ${op.t}`)
      }
      w.feature = { ...w.feature, billToDate: addDays(start, -1), isDropped: true }
      w.write(w.plan({ cutoff: null, chargeable: false }))
      const net = w.rows.reduce((t, r) => t + r.amount, 0n)
      const vat = w.rows.reduce((t, r) => t + r.VATAmount!, 0n)
      assert.equal([net, vat], [0n, 0n], w.rows.map((r) => `${r.transactionType} ${r.periodStart} ${r.amount} ${r.VATRate} ${r.VATAmount} ${r.approved}`).join('\n'))
      assert.ok(isEmptyDiff(w.plan({ cutoff: null, chargeable: false })), 'the refund reconciles')
      return true
    }),
    { numRuns: 300 },
  )
})

test('a delta adjustment is taxed as the charge it adjusts; a refund per rate the period was charged at', () => {
  const w = new TaxedLedger(feature({ startDate: d('2025-01-01'), interval: 'Calendar Monthly', VATRate: 'Standard 20%' }), m('10'))
  w.write(w.plan({ cutoff: d('2025-01-31'), chargeable: true }))
  w.rows = w.rows.map((r) => ({ ...r, approved: true }))
  w.feature = { ...w.feature, VATRate: 'Zero Rated' }
  const delta = planChargeChange({ chargeChangeMode: 'delta', dateFrom: d('2025-01-01'), serviceCharge: m('15') }, w.feature, w.history, w.rows, config)
  w.history = delta.history
  w.write(delta.diff)
  w.rows = w.rows.map((r) => ({ ...r, approved: true }))
  const replace = planChargeChange({ chargeChangeMode: 'replace', dateFrom: d('2025-01-01'), serviceCharge: m('20') }, w.feature, w.history, w.rows, config)
  w.history = replace.history
  w.write(replace.diff)
  assert.equal(
    w.rows.map((r) => `${r.transactionType} ${r.amount / 10_000n} ${r.VATRate} ${r.VATAmount! / 100n}`),
    ['Recurring Charge 10 Standard 20% 200', 'Recurring Charge Adjustment 5 Standard 20% 100', 'Recurring Charge Refund -15 Standard 20% -300', 'Recurring Charge 20 Zero Rated 0'],
  )
})

test.run()
