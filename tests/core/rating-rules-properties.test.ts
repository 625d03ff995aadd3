import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DateOnly } from '../../core/dates/date-only.js'
import { formatMoney, parseMoney } from '../../core/money/money.js'
import { byHolder, type FeatureTariffs } from '../../core/rating/feature-tariffs.js'
import { buildNumberIndex } from '../../core/rating/match-number.js'
import { withParents } from '../../core/rating/parent-tariffs.js'
import { isRated, rateRecord, type RatingNumber } from '../../core/rating/rate-record.js'
import type { RatingTariff } from '../../core/rating/rating-tariff.js'
import { usage } from '../support/usage-records.js'

const test = suite('core/rating rules of contract 17.7 (properties)')

const BANDS = ['A', 'B', 'C'] as const
const DATES = ['2026-01-01', '2026-01-10', '2026-01-20'] as const

/** A random forest of tariffs: each one's parent (if any) is an earlier one, so no cycles. */
const tariffsArb = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        parent: i === 0 ? fc.constant(null) : fc.option(fc.integer({ min: 1, max: i }), { nil: null }),
        rows: fc.uniqueArray(fc.tuple(fc.constantFrom(...BANDS), fc.integer({ min: 1, max: 99 })), { selector: ([b]) => b, maxLength: 3 }),
        baseCost: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }),
      }),
    ),
  ),
)

const featureArb = (tariffs: number) =>
  fc.record({
    onNumber: fc.boolean(),
    startDate: fc.option(fc.constantFrom(...DATES), { nil: null }),
    endDate: fc.option(fc.constantFrom(...DATES), { nil: null }),
    tariff: fc.option(fc.integer({ min: 1, max: tariffs }), { nil: null }),
  })

const worldArb = tariffsArb.chain((tariffs) =>
  fc.record({
    tariffs: fc.constant(tariffs),
    features: fc.array(featureArb(tariffs.length), { maxLength: 5 }),
    numberTariff: fc.option(fc.integer({ min: 1, max: tariffs.length }), { nil: null }),
    customerTariff: fc.option(fc.integer({ min: 1, max: tariffs.length }), { nil: null }),
    band: fc.constantFrom(...BANDS),
    day: fc.integer({ min: 1, max: 28 }),
  }),
)

const pence = (p: number) => parseMoney(`0.${String(p).padStart(2, '0')}`)!

test('the price chosen equals a brute-force search of the rules: feature, number, customer; nearest ancestor', () => {
  fc.assert(
    fc.property(worldArb, (w) => {
      const name = (i: number) => `T${i}`
      const stored = new Map<string, RatingTariff>()
      w.tariffs.forEach((t, i) =>
        stored.set(name(i + 1), {
          id: String(i + 1),
          name: name(i + 1),
          parentTariff: t.parent === null ? null : String(t.parent),
          baseCost: t.baseCost === null ? null : pence(t.baseCost),
          details: t.rows.map(([chargeBand, cost]) => ({ chargeBand, timeBand: 'any', cost: pence(cost) })),
        }),
      )
      const features: FeatureTariffs[] = w.features.map((f, i) => ({
        id: String(i + 1),
        customerID: '1',
        numberID: f.onNumber ? '1' : null,
        startDate: f.startDate as DateOnly | null,
        endDate: f.endDate as DateOnly | null,
        billToDate: null,
        isDropped: false,
        VATRateCalls: null,
        nationalTariff: f.tariff === null ? null : name(f.tariff),
      }))
      const date = `2026-01-${String(w.day).padStart(2, '0')}` as DateOnly
      const number = { numberID: '1', customerID: '1', number: '01632960001', nationalTariff: w.numberTariff === null ? null : name(w.numberTariff) } as unknown as RatingNumber
      const record = usage({ callingNumber: '01632960001', dialledNumber: '01632960999', startTime: `${date}T09:00:00Z`, chargeBand: w.band })
      const result = rateRecord(record, {
        numbers: buildNumberIndex([number], new Map()),
        customers: new Map([['1', { defaultNationalTariff: w.customerTariff === null ? null : name(w.customerTariff) }]]),
        tariffs: withParents(stored),
        features: byHolder(features),
      })

      // Brute force: every active feature of the number, then of the customer, best by (start, ID).
      const active = (f: FeatureTariffs) =>
        f.nationalTariff !== null && (f.startDate === null || f.startDate <= date) && (f.endDate === null || date <= f.endDate)
      const best = (fs: FeatureTariffs[]) =>
        fs.filter(active).reduce<FeatureTariffs | null>((a, f) => {
          if (a === null) return f
          const [as, fs2] = [a.startDate ?? '', f.startDate ?? '']
          return fs2 > as || (fs2 === as && Number(f.id) > Number(a.id)) ? f : a
        }, null)
      const feature = best(features.filter((f) => f.numberID === '1')) ?? best(features.filter((f) => f.numberID === null))
      const chosen = feature?.nationalTariff ?? number.nationalTariff ?? (w.customerTariff === null ? null : name(w.customerTariff))
      // Its rate: the nearest tariff up the chain with a row for the band, else the nearest baseCost.
      const chain: number[] = []
      for (let at: number | null = chosen === null ? null : Number(chosen.slice(1)); at !== null; at = w.tariffs[at - 1].parent) chain.push(at)
      const row = chain.map((i) => w.tariffs[i - 1].rows.find(([b]) => b === w.band)).find((r) => r !== undefined)
      const base = chain.map((i) => w.tariffs[i - 1].baseCost).find((c) => c !== null)
      const expected = row ? row[1] : (base ?? null)

      if (expected === null) {
        assert.ok(!isRated(result), JSON.stringify(result))
      } else {
        assert.ok(isRated(result), JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? String(v) : v)))
        assert.is(formatMoney(result.cost), formatMoney(pence(expected)))
        assert.is(result.tariffID, chosen!.slice(1))
        // The feature that priced it is recorded, for its row's VAT rate (contract 17.7).
        assert.is(result.pricingFeatureID, feature?.id ?? null)
      }
    }),
    { numRuns: 500 },
  )
})

test.run()
