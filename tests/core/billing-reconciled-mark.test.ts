import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { BillingFeature } from '../../core/billing/billing-feature.js'
import type { ChargeVersion } from '../../core/billing/charge-history.js'
import type { BillingCutoff } from '../../core/billing/feature-billing.js'
import { CUTOFF_KEYS, FEATURE_KEYS, reconciledMark, VERSION_KEYS } from '../../core/billing/reconciled-mark.js'
import type { DateOnly } from '../../core/dates/date-only.js'
import type { Money } from '../../core/money/money.js'
import { billingFeature } from '../support/billing-feature.js'

const d = (s: string) => s as DateOnly
const m = (n: bigint) => n as Money
const version: ChargeVersion = { from: d('2025-01-01'), serviceCharge: m(100_000n), featureCount: 1, committed: 1, interval: 'Monthly', series: 0, mode: 'replace' }
const at: BillingCutoff = { cutoff: d('2025-03-31'), chargeable: true }

/** A different value of the same type for each field, and a second one (null where allowed). */
const otherFeature: { [K in keyof BillingFeature]: BillingFeature[K][] } = {
  startDate: [d('2025-01-02'), null],
  endDate: [d('2025-06-30')],
  billToDate: [d('2025-05-31')],
  gaps: [[{ from: d('2025-02-11'), to: d('2025-03-31') }], [{ from: d('2025-02-11'), to: d('2025-04-01') }, { from: d('2025-05-01'), to: d('2025-05-01') }]],
  interval: ['Calendar Monthly', 'Quarterly'],
  connectionCharge: [m(250_000n), m(0n)],
  connectionChargeCarrier: [m(120_000n), m(0n)],
  serviceChargeCarrier: [m(80_000n), m(0n)],
  featureCountCommitted: [3, 0],
  committedTermDate: [d('2026-01-01')],
  totalFeatureValue: [m(1_000_000n)],
  serviceTransactionType: ['Line Rental', 'null'],
  connectionTransactionType: ['Installation', ''],
  isDropped: [true],
  committedPeak: [true],
  discounts: [
    [{ from: d('2025-01-01'), through: d('2025-03-31'), percent: m(100_000n), amount: null }],
    [{ from: d('2025-01-01'), through: null, percent: m(100_000n), amount: null }],
    [{ from: d('2025-01-02'), through: d('2025-03-31'), percent: m(100_000n), amount: null }],
    [{ from: d('2025-01-01'), through: d('2025-03-31'), percent: null, amount: m(100_000n) }],
    [{ from: d('2025-01-01'), through: d('2025-03-31'), percent: m(100_000n), amount: null }, { from: d('2025-04-01'), through: null, percent: m(50_000n), amount: null }],
  ],
  instalments: [{ count: 12, total: m(1_000_000n) }, { count: 11, total: m(1_000_000n) }, { count: 12, total: m(1_000_001n) }],
  // Charges not yet invoiced move to a new rate (reconcile.ts).
  VATRate: ['Standard 20%', 'Reduced 5%', ''],
}
const otherVersion: { [K in keyof ChargeVersion]-?: ChargeVersion[K][] } = {
  from: [d('2025-01-15')],
  serviceCharge: [m(100_001n), null, m(-100_000n)],
  featureCount: [2, 0],
  committed: [3, null, undefined],
  interval: ['Quarterly', undefined],
  newLayout: [true],
  tariffPriced: [true],
  olderThrough: [d('2025-01-31'), d('2025-02-28')],
  series: [1],
  mode: ['delta', 'add'],
}
const otherCutoff: { [K in keyof BillingCutoff]-?: BillingCutoff[K][] } = { cutoff: [d('2025-04-01'), null], chargeable: [false], billable: [false] }

test('the mark is stable for equal inputs', () => {
  assert.is(reconciledMark(billingFeature(), [version], at), reconciledMark(billingFeature(), [{ ...version }], { ...at }))
  assert.match(reconciledMark(billingFeature(), [version], at), /^[A-Za-z0-9_-]{11}$/)
})

test('every field of the feature, each charge version and the cutoff changes the mark', () => {
  const base = reconciledMark(billingFeature(), [version], at)
  const seen = new Set([base])
  const differs = (mark: string, what: string) => {
    assert.not.ok(seen.has(mark), `${what} left the mark as it was`)
    seen.add(mark)
  }
  for (const key of FEATURE_KEYS) for (const value of otherFeature[key]) differs(reconciledMark(billingFeature({ [key]: value }), [version], at), `feature.${key} = ${String(value)}`)
  for (const key of VERSION_KEYS) for (const value of otherVersion[key]) differs(reconciledMark(billingFeature(), [{ ...version, [key]: value }], at), `version.${key} = ${String(value)}`)
  for (const key of CUTOFF_KEYS) for (const value of otherCutoff[key]) differs(reconciledMark(billingFeature(), [version], { ...at, [key]: value }), `cutoff.${key} = ${String(value)}`)
  differs(reconciledMark(billingFeature(), [version, { ...version, from: d('2025-02-01') }], at), 'a second version')
  differs(reconciledMark(billingFeature(), [], at), 'no version')
})

test('the mark keeps every bit of both lanes: distinct for distinct inputs, every character varying', () => {
  const marks = Array.from({ length: 4000 }, (_, i) => reconciledMark(billingFeature({ connectionCharge: m(BigInt(i)) }), [version], at))
  assert.is(new Set(marks).size, marks.length)
  for (let position = 0; position < 11; position++) {
    const seen = new Set(marks.map((mark) => mark[position]))
    // The last character holds 4 bits (16 values), the others 6 (64 values).
    assert.is(seen.size, position === 10 ? 16 : 64, `character ${position}`)
  }
})

test('free text cannot shift into the next field', () => {
  const a = reconciledMark(billingFeature({ serviceTransactionType: 'A|', connectionTransactionType: 'B' }), [version], at)
  const b = reconciledMark(billingFeature({ serviceTransactionType: 'A', connectionTransactionType: '|B' }), [version], at)
  assert.is.not(a, b)
})

test('amounts past 31 bits and fractional counts are told apart', () => {
  const marks = [m(2n ** 40n), m(2n ** 40n + 1n), m(-(2n ** 40n)), m(0x7fffffffn), m(0x80000000n)].map((c) => reconciledMark(billingFeature({ connectionCharge: c }), [version], at))
  const counts = [1.5, 2.5, 3, 2 ** 40, 2 ** 40 + 1].map((n) => reconciledMark(billingFeature(), [{ ...version, featureCount: n }], at))
  assert.is(new Set([...marks, ...counts]).size, 10)
})

test.run()
