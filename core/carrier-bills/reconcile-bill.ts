import { addDays, type DateOnly } from '../dates/date-only.js'
import { BillingError, quoted } from '../errors.js'
import type { Item } from '../fields/item.js'
import { add, LARGEST_AMOUNT, MAX_MONEY, mulRatio, sub, times, ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import { sameCarrier } from '../presets/carrier-allocation.js'
import type { CarrierData, CarrierFeature, LineMatch, StagedBill, StoredBillLine } from '../ports/carrier-data.js'
import { billLinePages, type CsvLine } from './bill-lines.js'
import { featureMatches, LINE_PAGE } from './feature-matches.js'

/** Features read a page at a time: memory follows a page, not the carrier's features. */
const FEATURE_PAGE = 5000
/** A matched line's cost may be off what we expected by this much (0.01, in money units). */
const TOLERANCE = 100n

/**
 * The features' side of a bill (the expected costs and billed amounts written on its lines, the
 * expected costs of the features not on it), added up by size as they are written. Every total
 * the bill stores of them sums some of these, so while the tally stays below `MAX_MONEY` none
 * can pass what a money column holds; the lines' own costs are held so as they are read
 * (`billLinePages`). Past it, the bill is refused naming the feature that took it there.
 */
class FeatureSide {
  private expected = 0n
  private billed = 0n

  add(featureID: string, expectedCost: Money, billedAmount: Money = ZERO): void {
    this.expected += expectedCost < 0n ? -expectedCost : expectedCost
    this.billed += billedAmount < 0n ? -billedAmount : billedAmount
    if (this.expected < MAX_MONEY && this.billed < MAX_MONEY) return
    const what = this.expected >= MAX_MONEY ? 'the costs its features were expected at (serviceChargeCarrier × featureCount)' : 'what its features were billed for the month'
    throw new BillingError(
      'invalid_field',
      `the bill cannot be reconciled: ${what} come to more than ${LARGEST_AMOUNT} by feature ${featureID}`,
      `Correct the serviceChargeCarrier or featureCount of the carrier's features (feature ${featureID} among them) and send the bill again: nothing of it was kept.`,
    )
  }
}

/** A period as `YYYY-MM`, as its first and last day; a bad `?period=` is a query parameter's error (400103). */
export function monthOf(period: string | null): { from: DateOnly; to: DateOnly } {
  const m = period === null ? null : /^(\d{4})-(0[1-9]|1[0-2])$/.exec(period)
  if (!m) throw new BillingError('invalid_query', `period ${quoted(period ?? '')} is not a month YYYY-MM`, 'Give the month the bill is for: ?period=2026-01.')
  const from = `${m[1]}-${m[2]}-01` as DateOnly
  const next = m[2] === '12' ? `${Number(m[1]) + 1}-01-01` : `${m[1]}-${String(Number(m[2]) + 1).padStart(2, '0')}-01`
  return { from, to: addDays(next as DateOnly, -1) }
}

/** Carriers a hint names before it says how many there are. */
const SHOWN_CARRIERS = 20

/**
 * The presets' carrier a `?carrier=` names, in the list's spelling: a feature's `carrier` is a
 * name of that list, stored as the list spells it and compared exactly, so a bill named another
 * way (`gamma`, a misspelling) would match none of them and seem billed to nobody. Case and
 * surrounding spaces are ignored, as carrier allocation ignores them (`sameCarrier`); a name
 * the list lacks is a query parameter's error (400103).
 */
function billCarrier(carriers: readonly string[], text: string | null): string {
  if (!text || !text.trim()) throw new BillingError('invalid_query', 'carrier is missing', 'Name the carrier whose bill it is: ?carrier=Gamma.')
  const known = carriers.find((c) => sameCarrier(c, text))
  if (known !== undefined) return known
  const more = carriers.length > SHOWN_CARRIERS ? `, … (${carriers.length} in all)` : ''
  throw new BillingError(
    'invalid_query',
    `carrier ${quoted(text)} is not one of the presets' carriers`,
    carriers.length > 0 ? `Name a carrier of the presets list carriers: ${carriers.slice(0, SHOWN_CARRIERS).join(', ')}${more}.` : 'The presets list carriers is empty: add the carrier to it first.',
  )
}

/** What we expected the carrier to charge for a feature for the month: `serviceChargeCarrier` × `featureCount` (1 when unset). */
function expectedOf(f: CarrierFeature): Money {
  const count = f.featureCount ?? 1
  // A fractional count (a part circuit) is exact to 4 places, rounded half-up like money.
  return Number.isInteger(count) ? times(f.serviceChargeCarrier ?? ZERO, count) : mulRatio(f.serviceChargeCarrier ?? ZERO, Math.round(count * 10_000), 10_000)
}

/**
 * Stores a carrier's bill and reconciles it (contract 17.4) against the features whose
 * `carrier` is that carrier and which were active in the month, in one transaction (a bad line
 * stores nothing): the lines are staged as they are read, a page at a time, then the features
 * are read a page at a time and each matched against the staged lines (`featureMatches`). Each
 * line matches the first feature (by ID) it matches, or none (`notBilled`); a matched line whose
 * cost is off the expected by more than 0.01 is `costDiffers`; each feature no line matches is
 * counted and stored, a page at a time (`storeNotOnBill`): the reconciliation
 * lists those, so its list and its count are the same facts, fixed when the bill is posted
 * (matching again when it is read listed features added or dropped since, against the stored
 * count). The totals are the database's sums of the staged lines, which are then stored in one
 * statement. Memory follows a page, never the bill nor the features.
 */
export async function reconcileCarrierBill(ctx: PlatformContext, carrierText: string | null, period: string | null, csv: AsyncIterable<readonly CsvLine[]>): Promise<Item> {
  const carrier = billCarrier(ctx.presets.lists.carriers ?? [], carrierText)
  const { from, to } = monthOf(period)
  const now = ctx.clock.now()
  return ctx.store.bulkTransaction(async (store) => {
    const bills = store.repository('carrierBills')
    const bill = await bills.insert({ carrier, period, lines: 0, createdStamp: now, updatedStamp: now })
    const staged = await store.carriers.stageBill()
    for await (const page of billLinePages(csv, LINE_PAGE)) await staged.add(page)
    const missing = { count: 0, expected: ZERO }
    const features = new FeatureSide()
    for await (const page of featurePages(store.carriers, carrier, from, to)) {
      const notOnBill = (await matchPage(store.carriers, staged, page, from, to, features)).map((i) => ({ featureID: page[i].id, expectedCost: expectedOf(page[i]) }))
      for (const f of notOnBill) {
        features.add(f.featureID, f.expectedCost)
        missing.count++
        missing.expected = add(missing.expected, f.expectedCost)
      }
      if (notOnBill.length > 0) await store.carriers.storeNotOnBill(bill.id, notOnBill)
    }
    const sums = new Map((await staged.totals()).map((t) => [t.outcome, t]))
    await staged.store(bill.id, now)
    const none = { count: 0, cost: ZERO, expectedCost: ZERO, billedAmount: ZERO }
    const [matched, differs, notBilled] = (['matched', 'costDiffers', 'notBilled'] as const).map((o) => sums.get(o) ?? none)
    return (await bills.update(bill.id, {
      lines: matched.count + differs.count + notBilled.count,
      totalCost: add(add(matched.cost, differs.cost), notBilled.cost),
      matchedCount: matched.count + differs.count,
      matchedCarrierCost: add(matched.cost, differs.cost),
      matchedExpectedCost: add(matched.expectedCost, differs.expectedCost),
      matchedBilled: add(matched.billedAmount, differs.billedAmount),
      notBilledCount: notBilled.count,
      notBilledCost: notBilled.cost,
      notOnCarrierBillCount: missing.count,
      notOnCarrierBillExpectedCost: missing.expected,
      costDiffersCount: differs.count,
      costDiffersCarrierCost: differs.cost,
      costDiffersExpectedCost: differs.expectedCost,
      updatedStamp: now,
    }))!
  })
}

/**
 * Matches a page of features (in ID order) against a stored bill and records each line's
 * match: a line takes the page's first feature that matches it, unless an earlier page's feature
 * took it. Returns the indexes of the features no line matches. Matches are written whenever
 * a page's worth is gathered (a pattern feature may match much of the bill), the database
 * keeping the lower feature ID where two writes meet a line.
 */
async function matchPage(carriers: CarrierData, staged: StagedBill, page: readonly CarrierFeature[], from: DateOnly, to: DateOnly, features: FeatureSide): Promise<number[]> {
  const matchedAny = new Uint8Array(page.length)
  let taken = new Map<string, { feature: number; line: StoredBillLine }>()
  const write = async () => {
    if (taken.size === 0) return
    const entries = [...taken.values()]
    taken = new Map()
    const billed = await carriers.billedFor([...new Set(entries.map((e) => page[e.feature].id))], from, to)
    await staged.match(
      entries.map(({ feature, line }): LineMatch => {
        const expectedCost = expectedOf(page[feature])
        const off = sub(line.cost, expectedCost)
        const billedAmount = billed.get(page[feature].id) ?? ZERO
        features.add(page[feature].id, expectedCost, billedAmount)
        return { lineID: line.id, featureID: page[feature].id, expectedCost, billedAmount, outcome: off > TOLERANCE || off < -TOLERANCE ? 'costDiffers' : 'matched' }
      }),
    )
  }
  for await (const batch of featureMatches(staged, page)) {
    for (const { feature, line } of batch) {
      matchedAny[feature] = 1
      if (line.featureID !== null && idBefore(line.featureID, page[feature].id)) continue
      const held = taken.get(line.id)
      if (!held || feature < held.feature) taken.set(line.id, { feature, line })
    }
    if (taken.size >= LINE_PAGE) await write()
  }
  await write()
  const unmatched: number[] = []
  matchedAny.forEach((m, i) => m === 0 && unmatched.push(i))
  return unmatched
}

/** The carrier's features active in the month, a page at a time in ID order. */
async function* featurePages(carriers: CarrierData, carrier: string, from: DateOnly, to: DateOnly): AsyncGenerator<readonly CarrierFeature[]> {
  for (let after: string | null = null; ; ) {
    const page = await carriers.carrierFeatures(carrier, from, to, after, FEATURE_PAGE)
    if (page.length === 0) return
    after = page.at(-1)!.id
    yield page
  }
}

/** Whether ID `a` is below ID `b` (decimal text without leading zeros, of any length). */
const idBefore = (a: string, b: string) => a.length < b.length || (a.length === b.length && a < b)

/**
 * The features of a stored bill's carrier, active in its month, that none of its lines matches
 * (contract 17.4 `notOnCarrierBill`), a page at a time: the features read 5,000 at a time and
 * matched against the stored lines (`featureMatches`), so memory follows a page, not the bill.
 * Only for a bill posted before its `notOnCarrierBill` rows were stored: it reads the features
 * as they are now, which may differ from the count stored with the bill.
 */
export async function* featuresNotOnBill(ctx: PlatformContext, bill: { readonly id: string; readonly carrier: string; readonly period: string }): AsyncGenerator<{ featureID: string; expectedCost: Money }[]> {
  const { from, to } = monthOf(bill.period)
  for await (const page of featurePages(ctx.store.carriers, bill.carrier, from, to)) {
    const matchedAny = new Uint8Array(page.length)
    for await (const batch of featureMatches(ctx.store.carriers.storedBill(bill.id), page)) for (const m of batch) matchedAny[m.feature] = 1
    const missing = page.filter((_, i) => matchedAny[i] === 0).map((f) => ({ featureID: f.id, expectedCost: expectedOf(f) }))
    if (missing.length > 0) yield missing
  }
}
