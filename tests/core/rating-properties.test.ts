import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { toStamp } from '../../core/dates/stamp.js'
import { parseMoney, type Money } from '../../core/money/money.js'
import { findRate } from '../../core/rating/find-rate.js'
import { buildNumberIndex } from '../../core/rating/match-number.js'
import { rateCall, type CallCost } from '../../core/rating/rate-call.js'
import { rateRecord, type RatingContext } from '../../core/rating/rate-record.js'
import type { RatingTariff } from '../../core/rating/rating-tariff.js'
import { timeBandOf } from '../../core/rating/time-band.js'
import type { UsageRecord } from '../../core/rating/usage-record.js'

const test = suite('core/rating properties')

/** A non-negative amount as the wire has it: a JS number with at most 4 decimals. */
const amount = (max = 100_000) => fc.integer({ min: 0, max }).map((u) => u / 10_000)
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null })
const seconds = fc.integer({ min: 0, max: 20_000_000 }).map((ms) => ms / 1000)
const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }).map((ms) => toStamp(ms - (ms % 1000)))

interface Shape {
  tariff: RatingTariff
  min: number | null
  max: number | null
}

const tariffs = (options: { surcharges: boolean; pence: boolean }): fc.Arbitrary<Shape> =>
  fc
    .record({
      baseType: fc.constantFrom(null, 'Per Minute', 'Per Second', 'Per Call'),
      cost: amount(),
      costConnection: amount(),
      min: optional(amount(200_000)),
      span: optional(amount(500_000)),
      baseRoundSeconds: optional(fc.integer({ min: 1, max: 120 })),
      baseDurationMin: optional(fc.integer({ min: 0, max: 300 })),
      baseRoundPence: options.pence ? optional(fc.constantFrom(0.1, 0.5, 1, 5, 10)) : fc.constant(null),
      surcharge: options.surcharges ? optional(amount()) : fc.constant(null),
      access: options.surcharges ? optional(amount()) : fc.constant(null),
    })
    .map((r) => {
      // add in ten-thousandths: float addition of two 4-place numbers can leave more places
      const max = r.span === null ? null : (Math.round((r.min ?? 0) * 10_000) + Math.round(r.span * 10_000)) / 10_000
      return {
        min: r.min,
        max,
        tariff: {
          id: 't',
          name: 'T',
          baseType: r.baseType,
          baseRoundSeconds: r.baseRoundSeconds,
          baseDurationMin: r.baseDurationMin,
          baseRoundPence: r.baseRoundPence,
          baseSurchargeMobileOrigination: r.surcharge,
          baseSurchargeMobileOriginationConnection: r.surcharge,
          baseSurchargeCallRecording: r.surcharge,
          baseAccessCharge: r.access,
          details: [{ chargeBand: 'UK', timeBand: 'any', cost: r.cost, costConnection: r.costConnection, costMin: r.min, costMax: max }],
        },
      }
    })

function usage(durationSeconds: number, startTime = toStamp(Date.UTC(2026, 0, 5, 9)), mobile = false): UsageRecord {
  return {
    lineNumber: 2,
    callingNumber: '01632960000',
    dialledNumber: '02079460000',
    startTime,
    durationSeconds,
    chargeBand: 'UK',
    callClass: 'national',
    carrier: 'Gamma',
    bytes: null,
    events: null,
    origination: mobile ? 'mobile' : 'fixed',
    recorded: mobile,
    externalID: null,
    wholesaleCost: null,
  }
}

function cost(t: RatingTariff, r: UsageRecord): CallCost {
  const c = rateCall(t, findRate(t, r)!.rate, r)
  if ('unbilledReason' in c) throw new Error(c.unbilledReason)
  return c
}

const within = (m: Money, min: number | null, max: number | null) =>
  (min === null || m >= parseMoney(min)!) && (max === null || m <= parseMoney(max)!)

test('the call charge is never below the minimum nor above the maximum', () => {
  fc.assert(
    fc.property(tariffs({ surcharges: true, pence: true }), seconds, fc.boolean(), (s, d, mobile) =>
      within(cost(s.tariff, usage(d, undefined, mobile)).callCharge, s.min, s.max),
    ),
  )
  // with nothing added after the clamp, the final cost is within the bounds too
  fc.assert(fc.property(tariffs({ surcharges: false, pence: false }), seconds, (s, d) => within(cost(s.tariff, usage(d)).cost, s.min, s.max)))
})

test('cost is non-decreasing in duration', () => {
  fc.assert(
    fc.property(tariffs({ surcharges: true, pence: true }), seconds, seconds, fc.boolean(), (s, a, b, mobile) => {
      const [short, long] = a <= b ? [a, b] : [b, a]
      return cost(s.tariff, usage(short, undefined, mobile)).cost <= cost(s.tariff, usage(long, undefined, mobile)).cost
    }),
  )
})

test('rating is deterministic and ignores the line number', () => {
  const context = (t: RatingTariff): RatingContext => ({
    numbers: buildNumberIndex([{ numberID: 'n1', customerID: 'c1', number: '01632 960000', nationalTariff: 'T' }]),
    customers: new Map([['c1', { fallbackMarkup: 15 }]]),
    tariffs: new Map([['T', t]]),
  })
  fc.assert(
    fc.property(tariffs({ surcharges: true, pence: true }), seconds, instant, fc.integer({ min: 2, max: 1e6 }), (s, d, at, line) => {
      const r = usage(d, at)
      assert.equal(rateRecord(r, context(s.tariff)), rateRecord({ ...r, lineNumber: line }, context(s.tariff)))
    }),
  )
})

test("a rate's remembered prices are the prices worked afresh, covered or not", () => {
  // Durations that repeat, as rounded ones do, so one call's price is asked for by another.
  const call = fc.record({ d: fc.oneof(seconds, fc.constantFrom(0, 1, 59.5, 60, 61, 3600)), mobile: fc.boolean(), covered: fc.constantFrom('none', 'all', 'some') })
  fc.assert(
    fc.property(tariffs({ surcharges: true, pence: true }), fc.array(call, { minLength: 1, maxLength: 30 }), (s, calls) => {
      // One tariff for every call, so later calls may be priced from what earlier ones left.
      const shared = s.tariff
      for (const c of calls) {
        const r = usage(c.d, undefined, c.mobile)
        const allowance = c.covered === 'none' ? 0n : c.covered === 'all' ? 10n ** 12n : BigInt(Math.round(c.d * 500))
        // A copy of the tariff has rates of its own, priced from nothing.
        const fresh = structuredClone(shared)
        assert.equal(rateCall(shared, findRate(shared, r)!.rate, r, allowance), rateCall(fresh, findRate(fresh, r)!.rate, r, allowance))
      }
    }),
  )
})

test('prices stay right past the most that are remembered', () => {
  // A tariff priced by the second keeps a price for nearly every duration, until the memo is full
  // and starts afresh: 40,000 durations fill it twice over, and each is priced again after.
  const tariff: RatingTariff = { id: 's', name: 'S', baseType: 'Per Second', details: [{ chargeBand: 'UK', timeBand: 'any', cost: 0.0123, costConnection: 0.01 }] }
  const fresh = (d: number) => cost(structuredClone(tariff), usage(d))
  const durations = Array.from({ length: 40_000 }, (_, i) => (i * 7) / 1000)
  const first = durations.map((d) => cost(tariff, usage(d)))
  for (const i of [0, 1, 16_383, 16_384, 20_000, 39_999]) {
    assert.equal(cost(tariff, usage(durations[i])), first[i])
    assert.equal(first[i], fresh(durations[i]))
  }
})

test('time bands agree with the UTC calendar', () => {
  fc.assert(
    fc.property(instant, (at) => {
      const d = new Date(at)
      const weekend = d.getUTCDay() === 0 || d.getUTCDay() === 6
      const expected = weekend ? 'weekend' : d.getUTCHours() >= 8 && d.getUTCHours() < 18 ? 'day' : 'evening'
      return timeBandOf(at) === expected
    }),
  )
})

test.run()
