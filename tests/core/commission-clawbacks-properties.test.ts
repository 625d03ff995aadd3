import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DateOnly } from '../../core/dates/date-only.js'
import { parseMoney, type Money } from '../../core/money/money.js'
import type { CommissionRow, CommissionTerms, CorrectedRow } from '../../core/ports/books.js'
import { defaultPresets } from '../../core/presets/presets.js'
import { commissionLines } from '../../core/reports/commission-lines.js'

/**
 * Contract 16.3, README "Credit notes": a charge credited in pieces, then refunded what the notes
 * left, in pieces too, gives back exactly what it earned, each piece within a penny of its share.
 */
const test = suite('core/reports commission clawbacks: credited and refunded in pieces')

const NO_TERMS: CommissionTerms = {
  commissionHolder: null, connectionChargeCommission: null, connectionChargeCommissionType: null, serviceChargeCommission: null, serviceChargeCommissionType: null,
  commissionHolderID2: null, connectionChargeCommission2: null, connectionChargeCommissionType2: null, serviceChargeCommission2: null, serviceChargeCommissionType2: null,
  connectionChargeCommissionProfile: null, serviceChargeCommissionProfile: null, callChargeCommissionProfile: null, serviceChargeInterval: null, startDate: null,
  profilePercents: null,
}
const row = (over: Partial<CommissionRow>, terms: Partial<CommissionTerms>): CommissionRow => ({
  source: 'invoice', transactionID: '1', kind: 'recurring', transactionType: 'Recurring Charge', transactionDate: '2026-01-31' as DateOnly,
  dateFrom: '2026-01-01' as DateOnly, dateTo: '2026-01-31' as DateOnly, amount: 0n as Money, creditedAmount: null, customerID: '1', currency: 'GBP', accountNumber: null,
  customerHolder: null, commissionReferenceDate: null, featureID: '1', saleType: null, ...over, terms: { ...NO_TERMS, ...terms },
})
const total = (r: CommissionRow) => commissionLines(r, null, defaultPresets).reduce((s, l) => s + l.commission, 0n)

/** Splits `whole` pence into parts of at least a penny at the cut points given (fractions of it). */
function pieces(whole: bigint, cuts: readonly number[]): bigint[] {
  const at = [...new Set(cuts.map((c) => BigInt(Math.floor(c * Number(whole)))).filter((p) => p > 0n && p < whole))].sort((a, b) => (a < b ? -1 : 1))
  return [...at, whole].map((p, i) => p - (i === 0 ? 0n : at[i - 1]))
}

const percentage = fc.bigInt({ min: 1n, max: 1_000_000n }).map((p) => ({ serviceChargeCommission: p as Money, serviceChargeCommissionType: 'Percentage' }))
const fixedAmount = fc.bigInt({ min: 1n, max: 10_000_000n }).map((f) => ({ serviceChargeCommission: f as Money, serviceChargeCommissionType: 'Fixed Amount' }))
const cutsArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 })

test('property: credit notes then refunds summing to the whole net end at exactly 0, each clawback within a penny of its pro-rata share', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 1n, max: 2_000_000n }), fc.oneof(percentage, fixedAmount), cutsArb, fc.double({ min: 0, max: 1, noNaN: true }), cutsArb, (pence, terms, creditCuts, credited, refundCuts) => {
      const charge = (pence * 100n) as Money
      const kept = { commissionHolder: 'Alice', serviceChargeInterval: 'Calendar Monthly', startDate: '2026-01-01' as DateOnly, ...terms }
      const charged = row({ amount: charge }, kept)
      const earned = total(charged)
      // The corrections are written when Ben holds the feature at 50 %: their own terms must not count.
      const now = { commissionHolder: 'Ben', serviceChargeCommission: parseMoney('50')!, serviceChargeCommissionType: 'Percentage' }
      // Within a penny of earned × the piece's net ÷ the charge's, exactly: |back × charge − earned × net| ≤ 0.01 × charge.
      const nearShare = (back: bigint, net: bigint) => {
        const diff = back * charge - earned * net
        return (diff < 0n ? -diff : diff) <= 100n * charge
      }
      const creditedPence = BigInt(Math.floor(credited * Number(pence)))
      let sum = 0n
      let before = 0n
      let id = 2
      for (const piece of creditedPence > 0n ? pieces(creditedPence, creditCuts) : []) {
        const net = -piece * 100n
        const back = total(row({ source: 'creditNote', transactionID: String(id++), amount: net as Money, creditedAmount: charge, creditedBefore: before as Money }, kept))
        if (!nearShare(back, net)) return false
        sum += back
        before += net
      }
      const corrects: CorrectedRow[] = [{ transactionType: 'Recurring Charge', amount: charge, credited: before as Money, earning: charged }]
      const left = pence - creditedPence
      const refunds = left > 0n ? pieces(left, refundCuts) : []
      refunds.forEach((piece, i) => {
        const type = i === refunds.length - 1 ? 'Recurring Charge Refund' : 'Recurring Charge Adjustment Refund'
        const amount = (-piece * 100n) as Money
        const r = row({ transactionID: String(id++), transactionType: type, amount, corrects: [...corrects] }, now)
        const lines = commissionLines(r, null, defaultPresets)
        if (lines.some((l) => l.holder !== 'Alice')) throw new Error('clawed back from the holder now')
        const back = lines.reduce((s, l) => s + l.commission, 0n)
        if (!nearShare(back, amount)) throw new Error(`refund ${amount} of ${charge} took ${back} of ${earned}`)
        sum += back
        corrects.push({ transactionType: type, amount, earning: { ...r, corrects: undefined } })
      })
      return sum === -earned
    }),
    { numRuns: 3_000 },
  )
})

test('a charge of 10.00 at 10 % credited 3.33, 3.33 and 3.34 gives back 0.33, 0.34 and 0.33; credited 3.35 then refunded 6.65: 0.34 and 0.66', () => {
  const kept = { commissionHolder: 'Alice', serviceChargeCommission: parseMoney('10')!, serviceChargeCommissionType: 'Percentage' }
  const charge = parseMoney('10')!
  const note = (amount: string, before: string) => total(row({ source: 'creditNote', amount: parseMoney(amount)!, creditedAmount: charge, creditedBefore: parseMoney(before)! }, kept))
  assert.equal([note('-3.33', '0'), note('-3.33', '-3.33'), note('-3.34', '-6.66')], [-3300n, -3400n, -3300n])
  const refund = row({ transactionType: 'Recurring Charge Refund', amount: parseMoney('-6.65')!, corrects: [{ transactionType: 'Recurring Charge', amount: charge, credited: parseMoney('-3.35')!, earning: row({ amount: charge }, kept) }] }, {})
  assert.equal([note('-3.35', '0'), total(refund)], [-3400n, -6600n])
})

test.run()
