import { addDays, type DateOnly } from '../dates/date-only.js'
import { BillingError, quoted } from '../errors.js'
import type { Item } from '../fields/item.js'
import { add, mulRatio, sub, times, ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { CarrierFeature, NewBillLine } from '../ports/carrier-data.js'
import { BillMatcher } from './bill-matcher.js'
import { readBillLines, type CsvLine } from './bill-lines.js'

/** Features read a page at a time: memory follows the bill, not the carrier's features. */
const FEATURE_PAGE = 5000
/** A matched line's cost may be off what we expected by this much (0.01, in money units). */
const TOLERANCE = 100n

/** A period as `YYYY-MM`, as its first and last day. */
export function monthOf(period: string | null): { from: DateOnly; to: DateOnly } {
  const m = period === null ? null : /^(\d{4})-(0[1-9]|1[0-2])$/.exec(period)
  if (!m) throw new BillingError('invalid_field', `period ${quoted(period ?? '')} is not a month YYYY-MM`, 'Give the month the bill is for: ?period=2026-01.')
  const from = `${m[1]}-${m[2]}-01` as DateOnly
  const next = m[2] === '12' ? `${Number(m[1]) + 1}-01-01` : `${m[1]}-${String(Number(m[2]) + 1).padStart(2, '0')}-01`
  return { from, to: addDays(next as DateOnly, -1) }
}

/** What we expected the carrier to charge for a feature for the month: `serviceChargeCarrier` × `featureCount` (1 when unset). */
function expectedOf(f: CarrierFeature): Money {
  const count = f.featureCount ?? 1
  // A fractional count (a part circuit) is exact to 4 places, rounded half-up like money.
  return Number.isInteger(count) ? times(f.serviceChargeCarrier ?? ZERO, count) : mulRatio(f.serviceChargeCarrier ?? ZERO, Math.round(count * 10_000), 10_000)
}

/**
 * Stores a carrier's bill and reconciles it (contract 17.4) against the features whose
 * `carrier` is that carrier and which were active in the month, in one transaction: each line
 * matches the first feature (by ID) it matches (`BillMatcher`), or none (`notBilled`); a matched
 * line whose cost is off the expected by more than 0.01 is `costDiffers`; each feature no line
 * matches is counted (and listed when the reconciliation is read: `featuresNotOnBill`, which
 * matches again rather than storing four features in five). A bad line stores nothing.
 */
export async function reconcileCarrierBill(ctx: PlatformContext, carrier: string | null, period: string | null, csv: AsyncIterable<readonly CsvLine[]>): Promise<Item> {
  if (!carrier || !carrier.trim()) throw new BillingError('invalid_field', 'carrier is missing', 'Name the carrier whose bill it is: ?carrier=Gamma.')
  const { from, to } = monthOf(period)
  const lines = await readBillLines(csv)
  const matcher = new BillMatcher(lines)
  const featureOf: (string | null)[] = lines.map(() => null)
  const expected: (Money | null)[] = lines.map(() => null)
  const billed: (Money | null)[] = lines.map(() => null)
  const now = ctx.clock.now()
  return ctx.store.bulkTransaction(async (store) => {
    const bills = store.repository('carrierBills')
    const bill = await bills.insert({ carrier: carrier.trim(), period, lines: lines.length, createdStamp: now, updatedStamp: now })
    const missing = { count: 0, expected: ZERO }
    const row = (values: Omit<NewBillLine, 'carrierBillID' | 'featureID' | 'expectedCost' | 'billedAmount' | 'createdStamp' | 'updatedStamp'> & Partial<NewBillLine>): NewBillLine => ({
      carrierBillID: bill.id,
      featureID: null,
      expectedCost: null,
      billedAmount: null,
      createdStamp: now,
      updatedStamp: now,
      ...values,
    })
    for (let after: string | null = null; ; ) {
      const page = await store.carriers.carrierFeatures(carrier.trim(), from, to, after, FEATURE_PAGE)
      if (page.length === 0) break
      after = page.at(-1)!.id
      const assigned: number[] = []
      for (const feature of page) {
        const matches = matcher.linesOf(feature)
        if (matches.length === 0) {
          const cost = expectedOf(feature)
          missing.count++
          missing.expected = add(missing.expected, cost)
          continue
        }
        for (const i of matches) {
          if (featureOf[i] !== null) continue
          featureOf[i] = feature.id
          expected[i] = expectedOf(feature)
          assigned.push(i)
        }
      }
      if (assigned.length > 0) {
        const sums = await store.carriers.billedFor([...new Set(assigned.map((i) => featureOf[i]!))], from, to)
        for (const i of assigned) billed[i] = sums.get(featureOf[i]!) ?? ZERO
      }
    }
    const totals = { total: ZERO, matched: 0, matchedCost: ZERO, matchedExpected: ZERO, matchedBilled: ZERO, notBilled: 0, notBilledCost: ZERO, differs: 0, differsCost: ZERO, differsExpected: ZERO }
    // Rows made and written a page at a time: all of a 200,000-line bill's at once added 100 MB.
    const toRow = (l: (typeof lines)[number], i: number): NewBillLine => {
      totals.total = add(totals.total, l.cost)
      const base = { line: l.line, productCode: l.productCode, reference: l.reference, description: l.description, quantity: l.quantity, cost: l.cost, periodFrom: l.periodFrom, periodTo: l.periodTo }
      if (featureOf[i] === null) {
        totals.notBilled++
        totals.notBilledCost = add(totals.notBilledCost, l.cost)
        return row({ ...base, outcome: 'notBilled' })
      }
      const off = sub(l.cost, expected[i]!)
      const differs = off > TOLERANCE || off < -TOLERANCE
      totals.matched++
      totals.matchedCost = add(totals.matchedCost, l.cost)
      totals.matchedExpected = add(totals.matchedExpected, expected[i]!)
      totals.matchedBilled = add(totals.matchedBilled, billed[i]!)
      if (differs) {
        totals.differs++
        totals.differsCost = add(totals.differsCost, l.cost)
        totals.differsExpected = add(totals.differsExpected, expected[i]!)
      }
      return row({ ...base, outcome: differs ? 'costDiffers' : 'matched', featureID: featureOf[i], expectedCost: expected[i], billedAmount: billed[i] })
    }
    for (let at = 0; at < lines.length; at += FEATURE_PAGE) {
      const page: NewBillLine[] = []
      for (let i = at; i < Math.min(lines.length, at + FEATURE_PAGE); i++) page.push(toRow(lines[i], i))
      await store.carriers.insertBillLines(page)
    }
    return (await bills.update(bill.id, {
      totalCost: totals.total,
      matchedCount: totals.matched,
      matchedCarrierCost: totals.matchedCost,
      matchedExpectedCost: totals.matchedExpected,
      matchedBilled: totals.matchedBilled,
      notBilledCount: totals.notBilled,
      notBilledCost: totals.notBilledCost,
      notOnCarrierBillCount: missing.count,
      notOnCarrierBillExpectedCost: missing.expected,
      costDiffersCount: totals.differs,
      costDiffersCarrierCost: totals.differsCost,
      costDiffersExpectedCost: totals.differsExpected,
      updatedStamp: now,
    }))!
  })
}

/**
 * The features of a stored bill's carrier, active in its month, that none of its lines matches
 * (contract 17.4 `notOnCarrierBill`), a page at a time: the bill's lines are read and indexed
 * again, the features read 5,000 at a time, so memory follows the bill, not the features.
 */
export async function* featuresNotOnBill(ctx: PlatformContext, bill: { readonly id: string; readonly carrier: string; readonly period: string }): AsyncGenerator<{ featureID: string; expectedCost: Money }[]> {
  const { from, to } = monthOf(bill.period)
  const keys: { productCode: string; reference: string }[] = []
  const repo = ctx.store.repository('carrierBillLines')
  for (let after: string | undefined; ; ) {
    const page = await repo.list({ where: [{ op: 'eq', column: 'carrierBillID', value: bill.id }], idAfter: after, limit: FEATURE_PAGE })
    if (page.length === 0) break
    for (const l of page) if (l.productCode !== null && l.reference !== null) keys.push({ productCode: l.productCode, reference: l.reference })
    after = page.at(-1)!.id
  }
  const matcher = new BillMatcher(keys)
  for (let after: string | null = null; ; ) {
    const page = await ctx.store.carriers.carrierFeatures(bill.carrier, from, to, after, FEATURE_PAGE)
    if (page.length === 0) return
    after = page.at(-1)!.id
    const missing = page.filter((f) => matcher.linesOf(f).length === 0).map((f) => ({ featureID: f.id, expectedCost: expectedOf(f) }))
    if (missing.length > 0) yield missing
  }
}
