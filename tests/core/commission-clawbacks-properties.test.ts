import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DateOnly } from '../../core/dates/date-only.js'
import { parseMoney, type Money } from '../../core/money/money.js'
import type { CommissionRow, CommissionTerms, CorrectedRow } from '../../core/ports/books.js'
import { defaultPresets } from '../../core/presets/presets.js'
import { commissionLines } from '../../core/reports/commission-lines.js'
import { commissionRow } from '../support/commission-rows.js'

/**
 * Contract 16.3, README "Credit notes": a charge credited and refunded in pieces, in any order,
 * gives back exactly what it earned, each piece within a penny of its share.
 */
const test = suite('core/reports commission clawbacks: credited and refunded in pieces, in any order')

const row = (over: Partial<CommissionRow>, terms: Partial<CommissionTerms>): CommissionRow =>
  commissionRow({ dateFrom: '2026-01-01' as DateOnly, dateTo: '2026-01-31' as DateOnly, ...over }, terms)
const total = (r: CommissionRow) => commissionLines(r, null, defaultPresets).reduce((s, l) => s + l.commission, 0n)

/** Splits `whole` pence into parts of at least a penny at the cut points given (fractions of it). */
function pieces(whole: bigint, cuts: readonly number[]): bigint[] {
  const at = [...new Set(cuts.map((c) => BigInt(Math.floor(c * Number(whole)))).filter((p) => p > 0n && p < whole))].sort((a, b) => (a < b ? -1 : 1))
  return [...at, whole].map((p, i) => p - (i === 0 ? 0n : at[i - 1]))
}

const percentage = fc.bigInt({ min: 1n, max: 1_000_000n }).map((p) => ({ type: 'Percentage', rate: p as Money }))
const fixedAmount = fc.bigInt({ min: 1n, max: 10_000_000n }).map((f) => ({ type: 'Fixed Amount', rate: f as Money }))
const cutsArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 })

/** A charge's pieces taken back in ledger order: each a credit note line or an engine refund. */
type Piece = { id: string; net: Money; by: 'credit' | 'refund' }

/**
 * The clawbacks of each piece of a charge of `charge` on `kept` terms, by holder, the rows each
 * reads as the books give them (commission-rows.ts): a credit note line with the lines before it
 * and the latest refund before it with what that corrects; a refund with the charge, the lines on
 * it before the refund and the refunds before it.
 */
function clawbacks(charge: Money, kept: Partial<CommissionTerms>, taken: readonly Piece[]): Map<string, bigint>[] {
  const charged = row({ amount: charge }, kept)
  // The corrections are written when Carl holds the feature at 50 %: their own terms must not count.
  const now = { commissionHolder: 'Carl', serviceChargeCommission: parseMoney('50')!, serviceChargeCommissionType: 'Percentage' }
  const correctsAt = (at: number): CorrectedRow[] => [
    { transactionID: '1', transactionType: 'Recurring Charge', amount: charge, credits: taken.filter((t) => t.by === 'credit' && Number(t.id) < at).map((t) => ({ transactionID: t.id, amount: t.net })), earning: charged },
    ...taken.filter((t) => t.by === 'refund' && Number(t.id) < at).map((t) => ({ transactionID: t.id, transactionType: 'Recurring Charge Adjustment Refund', amount: t.net, earning: null })),
  ]
  const byHolder = (r: CommissionRow) => {
    const out = new Map<string, bigint>()
    for (const l of commissionLines(r, null, defaultPresets)) out.set(l.holder, (out.get(l.holder) ?? 0n) + l.commission)
    return out
  }
  return taken.map((t, i) => {
    const at = Number(t.id)
    if (t.by === 'refund') {
      const type = i === taken.length - 1 ? 'Recurring Charge Refund' : 'Recurring Charge Adjustment Refund'
      return byHolder(row({ transactionID: t.id, transactionType: type, amount: t.net, corrects: correctsAt(at) }, now))
    }
    const creditedBefore = taken.filter((c) => c.by === 'credit' && Number(c.id) < at).reduce((a, c) => a + c.net, 0n) as Money
    const refund = taken.filter((r) => r.by === 'refund' && Number(r.id) < at).pop()
    const refundedBefore = refund && {
      creditedID: '1',
      correction: { transactionID: refund.id, transactionType: 'Recurring Charge Adjustment Refund', amount: refund.net, earning: null },
      corrects: correctsAt(Number(refund.id)),
    }
    return byHolder(row({ source: 'creditNote', transactionID: t.id, amount: t.net, creditedAmount: charge, creditedBefore, refundedBefore }, kept))
  })
}

test('property: refunds and credit note lines in any order, summing to the whole net, end at exactly 0 for each holder, each clawback within a penny of its share', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 1n, max: 2_000_000n }), fc.oneof(percentage, fixedAmount), fc.oneof(percentage, fixedAmount), cutsArb, fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }), (pence, first, second, cuts, refunds) => {
      const charge = (pence * 100n) as Money
      const kept = {
        commissionHolder: 'Alice', serviceChargeInterval: 'Calendar Monthly', startDate: '2026-01-01' as DateOnly,
        serviceChargeCommission: first.rate, serviceChargeCommissionType: first.type,
        commissionHolderID2: 'Ben', serviceChargeCommission2: second.rate, serviceChargeCommissionType2: second.type,
      }
      const earned = new Map(commissionLines(row({ amount: charge }, kept), null, defaultPresets).map((l) => [l.holder, l.commission]))
      const taken: Piece[] = pieces(pence, cuts).map((p, i) => ({ id: String(i + 2), net: (-p * 100n) as Money, by: refunds[i] ? 'refund' : 'credit' }))
      const backs = clawbacks(charge, kept, taken)
      for (const [holder, e] of earned) {
        let sum = 0n
        backs.forEach((b, i) => {
          const back = b.get(holder) ?? 0n
          // Within a penny of earned × the piece's net ÷ the charge's, exactly: |back × charge − earned × net| ≤ 0.01 × charge.
          const diff = back * charge - e * taken[i].net
          if ((diff < 0n ? -diff : diff) > 100n * charge) throw new Error(`${holder}: ${taken[i].by} ${taken[i].net} of ${charge} took ${back} of ${e}`)
          sum += back
        })
        if (sum !== -e) throw new Error(`${holder}: ${taken.map((t, i) => `${t.by} ${t.net}: ${backs[i].get(holder)}`).join(', ')} of ${e}`)
      }
      for (const b of backs) if (b.has('Carl')) throw new Error('clawed back from the holder now')
      return true
    }),
    { numRuns: 3_000 },
  )
})

test('a charge of 10.00 at 10 % refunded 3.35, then credited the 6.65 left: 0.34 and 0.66, where the line alone took 0.67', () => {
  const kept = { commissionHolder: 'Alice', serviceChargeCommission: parseMoney('10')!, serviceChargeCommissionType: 'Percentage' }
  const backs = clawbacks(parseMoney('10')!, kept, [
    { id: '2', net: parseMoney('-3.35')!, by: 'refund' },
    { id: '3', net: parseMoney('-6.65')!, by: 'credit' },
  ])
  assert.equal(backs.map((b) => b.get('Alice')), [-3400n, -6600n])
})

test('a period of a charge and an adjustment, credited and refunded in turns: each refund takes of what stands of each row, and all of it ends at exactly 0', () => {
  const kept = { commissionHolder: 'Alice', serviceChargeCommission: parseMoney('10')!, serviceChargeCommissionType: 'Percentage' }
  const net = (s: string) => parseMoney(s)!
  const charge = row({ transactionID: '1', amount: net('10') }, kept)
  const adjustment = row({ transactionID: '2', transactionType: 'Recurring Charge Adjustment', amount: net('5') }, kept)
  const rows = (at: number, credits: { on: string; id: string; amount: Money }[], refunds: CorrectedRow[]): CorrectedRow[] => [
    ...[charge, adjustment].map((r) => ({ transactionID: r.transactionID, transactionType: r.transactionType, amount: r.amount, credits: credits.filter((c) => c.on === r.transactionID && Number(c.id) < at).map((c) => ({ transactionID: c.id, amount: c.amount })), earning: r })),
    ...refunds.filter((r) => Number(r.transactionID) < at),
  ]
  const credits = [
    { on: '1', id: '3', amount: net('-3') },
    { on: '2', id: '5', amount: net('-2') },
  ]
  const refunds: CorrectedRow[] = [
    { transactionID: '4', transactionType: 'Recurring Charge Adjustment Refund', amount: net('-4'), earning: null },
    { transactionID: '6', transactionType: 'Recurring Charge Refund', amount: net('-6'), earning: null },
  ]
  const refund = (r: CorrectedRow) => total(row({ transactionID: r.transactionID, transactionType: r.transactionType, amount: r.amount, corrects: rows(Number(r.transactionID), credits, refunds) }, {}))
  const credit = (c: (typeof credits)[number], of: CommissionRow) =>
    total(row({ source: 'creditNote', transactionID: c.id, amount: c.amount, creditedAmount: of.amount, creditedBefore: 0n as Money, refundedBefore: Number(c.id) > 4 ? { creditedID: of.transactionID, correction: refunds[0], corrects: rows(4, credits, refunds) } : undefined }, kept))
  // 1.50 earned: the first note 0.30 of the charge's 1.00; the adjustment refund 4.00 of the 12.00 standing, 7/12 of it
  // from the charge (0.23) and 5/12 from the adjustment (0.17); the second note 2.00 of the adjustment's 0.50 (0.20);
  // the refund the rest: 0.47 and 0.13.
  const backs = [credit(credits[0], charge), refund(refunds[0]), credit(credits[1], adjustment), refund(refunds[1])]
  assert.equal(backs, [-3000n, -4000n, -2000n, -6000n])
})

test('a charge of 10.00 at 10 % credited 3.33, 3.33 and 3.34 gives back 0.33, 0.34 and 0.33; credited 3.35 then refunded 6.65: 0.34 and 0.66', () => {
  const kept = { commissionHolder: 'Alice', serviceChargeCommission: parseMoney('10')!, serviceChargeCommissionType: 'Percentage' }
  const charge = parseMoney('10')!
  const note = (amount: string, before: string) => total(row({ source: 'creditNote', amount: parseMoney(amount)!, creditedAmount: charge, creditedBefore: parseMoney(before)! }, kept))
  assert.equal([note('-3.33', '0'), note('-3.33', '-3.33'), note('-3.34', '-6.66')], [-3300n, -3400n, -3300n])
  const refund = row({ transactionID: '3', transactionType: 'Recurring Charge Refund', amount: parseMoney('-6.65')!, corrects: [{ transactionID: '1', transactionType: 'Recurring Charge', amount: charge, credits: [{ transactionID: '2', amount: parseMoney('-3.35')! }], earning: row({ amount: charge }, kept) }] }, {})
  assert.equal([note('-3.35', '0'), total(refund)], [-3400n, -6600n])
})

test.run()
