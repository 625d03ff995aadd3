import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { discountAmounts, type FeatureDiscount } from '../../core/billing/discounts.js'
import { instalmentAt } from '../../core/billing/instalments.js'
import { proRate } from '../../core/billing/pro-rate.js'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { mulRatioRound, parseMoney, type Money } from '../../core/money/money.js'
import type { CommissionRow, CommissionTerms, CorrectedRow } from '../../core/ports/books.js'
import { defaultPresets } from '../../core/presets/presets.js'
import { commissionLines } from '../../core/reports/commission-lines.js'
import { commissionRow } from '../support/commission-rows.js'

/**
 * Commission (contract 16.3), discounts and instalments are rounded once, half away from zero, to
 * the penny from the exact value: never to 4 places first (core/billing/pro-rate.ts says why).
 */
const test = suite('core/reports commission lines: rounded once')

/** The exact n / d in ten-thousandths, rounded half away from zero to whole pence: the oracle. */
function exactPence(n: bigint, d: bigint): bigint {
  const neg = n < 0n !== d < 0n
  const an = n < 0n ? -n : n
  const ad = d < 0n ? -d : d
  const q = (an * 2n + ad * 100n) / (ad * 200n)
  return (neg ? -q : q) * 100n
}

const pence = fc.bigInt({ min: -10_000_000n, max: 10_000_000n }).map((p) => (p * 100n) as Money)
/** Percentages with up to 4 decimals, most of them not round. */
const percent = fc.bigInt({ min: 1n, max: 1_000_000n }).map((p) => p as Money)
const fixed = fc.bigInt({ min: 1n, max: 10_000_000n }).map((p) => p as Money)

const row = (over: Partial<CommissionRow>, terms: Partial<CommissionTerms>): CommissionRow =>
  commissionRow({ transactionDate: '2026-12-31' as DateOnly, customerHolder: 'Alice', ...over }, terms)
const commissionOf = (r: CommissionRow) => commissionLines(r, null, defaultPresets)[0]?.commission

test('mulRatioRound is the exact ratio rounded once: 10.06 × 3.33 % is 0.33, where 4 places first gave 0.34', () => {
  assert.is(mulRatioRound(parseMoney('10.06')!, parseMoney('3.33')!, 1_000_000n, 2), parseMoney('0.33'))
  fc.assert(fc.property(pence, percent, fc.bigInt({ min: 1n, max: 10_000_000n }), (m, num, den) => mulRatioRound(m, num, den, 2) === exactPence(m * num, den)))
})

test('a Percentage commission is the exact net × percent, rounded once, for any net and non-round percentage', () => {
  fc.assert(
    fc.property(pence, percent, (net, p) => {
      const r = row({ amount: net }, { serviceChargeCommission: p, serviceChargeCommissionType: 'Percentage' })
      return commissionOf(r) === exactPence(net * p, 1_000_000n)
    }),
    // A twice-rounded value differs for about one net in 200: enough runs to meet some.
    { numRuns: 5_000 },
  )
})

test('a Fixed Amount is pro-rated as the charge (proRate), and a credit note takes its share of that, each rounded once', () => {
  const start = fc.integer({ min: 0, max: 364 }).map((n) => addDays('2026-01-01' as DateOnly, n))
  fc.assert(
    fc.property(fixed, start, fc.bigInt({ min: 1n, max: 100_000_000n }), fc.bigInt({ min: 1n, max: 100_000_000n }), (f, from, charge, part) => {
      const terms = { serviceChargeCommission: f, serviceChargeCommissionType: 'Fixed Amount', serviceChargeInterval: 'Calendar Annually', startDate: from }
      const charged = row({ dateFrom: from, dateTo: '2026-12-31' as DateOnly }, terms)
      const covered = 365 - (Date.parse(from) - Date.parse('2026-01-01')) / 86_400_000
      const whole = proRate(f, covered, 365)
      if (commissionOf(charged) !== whole) return false
      const credited = (charge * 100n) as Money
      const amount = (-(part <= charge ? part : charge) * 100n) as Money
      const note = row({ source: 'creditNote', dateFrom: from, dateTo: '2026-12-31' as DateOnly, amount, creditedAmount: credited }, terms)
      return commissionOf(note) === exactPence(whole * amount, credited)
    }),
    { numRuns: 5_000 },
  )
})

test('the clawbacks of a charge refunded in full, at once or after adjustment refunds, sum to minus what it earned, from its holder on its terms', () => {
  const percentage = percent.map((p) => ({ serviceChargeCommission: p, serviceChargeCommissionType: 'Percentage' }))
  const fixedAmount = fixed.map((f) => ({ serviceChargeCommission: f, serviceChargeCommissionType: 'Fixed Amount' }))
  const from = fc.integer({ min: 0, max: 30 }).map((n) => addDays('2026-01-01' as DateOnly, n))
  fc.assert(
    fc.property(fc.bigInt({ min: 1n, max: 10_000_000n }), fc.oneof(percentage, fixedAmount), from, fc.array(fc.bigInt({ min: 1n, max: 10_000_000n }), { maxLength: 4 }), (pounds, terms, dateFrom, cuts) => {
      const charge = (pounds * 100n) as Money
      const kept = { commissionHolder: 'Alice', serviceChargeInterval: 'Calendar Monthly', startDate: '2026-01-01' as DateOnly, ...terms }
      const charged = row({ dateFrom, dateTo: '2026-01-31' as DateOnly, amount: charge }, kept)
      const earned = commissionLines(charged, null, defaultPresets).reduce((s, l) => s + l.commission, 0n)
      // The corrections are written when Ben holds the feature at 50 %: their own terms must not count.
      const now = { commissionHolder: 'Ben', serviceChargeCommission: parseMoney('50')!, serviceChargeCommissionType: 'Percentage' }
      const corrects: CorrectedRow[] = [{ transactionID: charged.transactionID, transactionType: 'Recurring Charge', amount: charge, earning: charged }]
      let left = charge
      let back = 0n
      const correct = (transactionType: string, amount: Money) => {
        const r = row({ transactionID: String(corrects.length + 1), transactionType, dateFrom, dateTo: '2026-01-31' as DateOnly, amount, corrects: [...corrects] }, now)
        const lines = commissionLines(r, null, defaultPresets)
        if (lines.some((l) => l.holder !== 'Alice' || l.rate !== terms.serviceChargeCommission)) throw new Error(JSON.stringify(lines, (_, v) => (typeof v === 'bigint' ? String(v) : v)))
        back += lines.reduce((s, l) => s + l.commission, 0n)
        corrects.push({ transactionID: r.transactionID, transactionType, amount, earning: { ...r, corrects: undefined } })
        left = (left + amount) as Money
      }
      for (const cut of cuts) if (left > 100n) correct('Recurring Charge Adjustment Refund', -(cut * 100n < left ? cut * 100n : left - 100n) as Money)
      correct('Recurring Charge Refund', -left as Money)
      return back === -earned
    }),
    { numRuns: 2_000 },
  )
})

test("a profile's percentage kept with the terms is its rate, whatever the presets say now; only terms that kept none read the presets by name", () => {
  const kept = (service: Money | null) => ({ connectionChargeCommissionProfile: null, serviceChargeCommissionProfile: service, callChargeCommissionProfile: null })
  const r = (profilePercents: CommissionTerms['profilePercents']) => row({ amount: parseMoney('100')! }, { serviceChargeCommissionProfile: 'Standard Dealer', profilePercents })
  // Standard Dealer is 5 % in the shipped presets.
  assert.is(commissionOf(r(null)), parseMoney('5'))
  assert.is(commissionOf(r(kept(parseMoney('7.5')!))), parseMoney('7.5'))
  assert.is(commissionOf(r(kept(null))), undefined, 'kept as giving none: no line, even though the presets give one now')
})

test('a percentage discount and an instalment are rounded once too', () => {
  const discount = (percent: Money): FeatureDiscount => ({ from: '2026-01-01' as DateOnly, through: null, percent, amount: null })
  // 10.06 less 3.33 %: −0.33, not −0.34.
  assert.is(discountAmounts(discount(parseMoney('3.33')!), parseMoney('10.06')!, 1, parseMoney('10.06')!, 1, 1).amount, parseMoney('-0.33'))
  fc.assert(fc.property(pence, percent, (amount, p) => discountAmounts(discount(p), amount, 1, amount, 1, 1).amount === -exactPence(amount * p, 1_000_000n)))
  // 0.50 in 101 instalments: exactly 0.0049505 each, so 0.00 (4 places first gave 0.0050, then 0.01).
  assert.is(instalmentAt({ total: parseMoney('0.50')!, count: 101 }, 0), 0n)
  fc.assert(
    fc.property(fc.bigInt({ min: 1n, max: 10_000_000n }), fc.integer({ min: 2, max: 500 }), (p, count) => {
      const total = (p * 100n) as Money
      const each = exactPence(total, BigInt(count))
      return instalmentAt({ total, count }, 0) === (each < total ? each : total)
    }),
  )
})

test.run()
