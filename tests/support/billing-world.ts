import * as assert from 'uvu/assert'
import { billingFeature } from './billing-feature.js'
import type { BillingFeature } from '../../core/billing/billing-feature.js'
import { planChargeChange, type ChargeChangeConfig, type ChargeChangeParams } from '../../core/billing/charge-change.js'
import { initialHistory, type ChargeVersion } from '../../core/billing/charge-history.js'
import { dueDateOf, planFeatureBilling, type BillingCutoff } from '../../core/billing/feature-billing.js'
import { totalValueCharged } from '../../core/billing/feature-totals.js'
import { applyLedgerDiff, type LedgerDiff } from '../../core/billing/ledger-row.js'
import type { LedgerRow } from '../../core/ports/ledger.js'
import type { DateOnly } from '../../core/dates/date-only.js'
import { dropGap } from '../../core/lifecycle/drop-gaps.js'
import { isBillingError, type ErrorCode } from '../../core/errors.js'
import { formatMoney, parseMoney, type Money } from '../../core/money/money.js'

export const d = (s: string): DateOnly => s as DateOnly
export const m = (s: string): Money => parseMoney(s)!
export const show = (x: Money): string => formatMoney(x).slice(0, -2)
export const config: ChargeChangeConfig = {
  transactionTypes: ['Connection Charge', 'Recurring Charge', 'Recurring Charge Refund', 'Recurring Charge Adjustment', 'Recurring Charge Adjustment Refund'],
}

export const feature = billingFeature

/** A feature with its stored history and ledger, changed the way the persistence layer would. */
export class World {
  ledger: LedgerRow[] = []
  history: ChargeVersion[]
  private ids = 0
  constructor(
    public feature: BillingFeature,
    charge: string | Money | null,
    count = 1,
  ) {
    this.history = initialHistory(feature.startDate!, typeof charge === 'string' ? m(charge) : charge, count)
  }
  /** The next transaction ID, as the ledger gives them out (a credit note line's, in tests). */
  nextId(): string {
    return String(++this.ids)
  }
  private write(diff: LedgerDiff): void {
    this.ledger = applyLedgerDiff(this.ledger, diff, () => String(++this.ids))
  }
  /** A billing run (or an action's reconcile, with cutoff null) for this feature. */
  bill(cutoff: string | null, chargeable = true): LedgerDiff {
    const plan = planFeatureBilling(this.feature, this.history, this.ledger, { cutoff: cutoff ? d(cutoff) : null, chargeable })
    this.write(plan.diff)
    return plan.diff
  }
  approve(): void {
    this.ledger = this.ledger.map((r) => ({ ...r, approved: true }))
  }
  change(params: ChargeChangeParams, cfg = config): LedgerDiff {
    const plan = planChargeChange(params, this.feature, this.history, this.ledger, cfg)
    this.history = plan.history
    this.write(plan.diff)
    return plan.diff
  }
  drop(billTo: DateOnly): LedgerDiff {
    this.feature = { ...this.feature, billToDate: billTo, isDropped: true }
    return this.bill(null, false)
  }
  /** A reinstate on `date`: the days between the bill-to date and it are left uncharged, as the lifecycle records them. */
  reinstate(date: DateOnly): LedgerDiff {
    const gap = this.feature.billToDate ? dropGap(this.feature.billToDate, date) : null
    this.feature = { ...this.feature, billToDate: null, isDropped: false, gaps: gap ? [...this.feature.gaps, gap] : this.feature.gaps }
    return this.bill(null, false)
  }
  get due(): DateOnly | null {
    return dueDateOf(this.feature, this.history, this.ledger)
  }
  get total(): string {
    return show(totalValueCharged(this.ledger))
  }
  plan(at: BillingCutoff): LedgerDiff {
    return planFeatureBilling(this.feature, this.history, this.ledger, at).diff
  }
}

/** "type start..end amount" for each inserted row. */
export const inserted = (diff: LedgerDiff): string[] =>
  diff.insert.map((r) => `${r.transactionType} ${r.periodStart}..${r.periodEnd} ${show(r.amount)}`)
/** "id: field=value ..." for each in-place update. */
export const updated = (diff: LedgerDiff): string[] =>
  diff.update.map((u) => `${u.id}: ${Object.entries(u.set).map(([k, v]) => `${k}=${typeof v === 'bigint' ? show(v as Money) : v}`).join(' ')}`)

export function throwsCode(fn: () => unknown, code: ErrorCode): void {
  try {
    fn()
  } catch (e) {
    assert.ok(isBillingError(e), `expected a BillingError, got ${String(e)}`)
    assert.is(e.code, code)
    assert.ok(e.hint.length > 0, 'an error carries a hint')
    return
  }
  assert.unreachable(`expected ${code}`)
}
