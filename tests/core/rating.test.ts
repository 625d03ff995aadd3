import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DateOnly } from '../../core/dates/date-only.js'
import { parseDatetime } from '../../core/dates/stamp.js'
import { formatMoney, parseMoney, type Money } from '../../core/money/money.js'
import { findRate } from '../../core/rating/find-rate.js'
import { buildNumberIndex, matchNumber, type IgnoreTrafficEntry } from '../../core/rating/match-number.js'
import { normaliseNumber } from '../../core/rating/phone-number.js'
import { rateCall } from '../../core/rating/rate-call.js'
import { isRated, rateRecord, type RatingContext, type RatingNumber } from '../../core/rating/rate-record.js'
import type { RatingTariff, TariffDetail } from '../../core/rating/rating-tariff.js'
import type { CustomerTariffSettings } from '../../core/rating/select-tariff.js'
import { timeBandOf } from '../../core/rating/time-band.js'
import type { UsageRecord } from '../../core/rating/usage-record.js'
import { MONDAY_9AM, usage } from '../support/usage-records.js'
import { amountOf } from '../../core/rating/wire-amount.js'

const test = suite('core/rating')

const tariff = (over: Partial<RatingTariff> = {}): RatingTariff => ({ id: 't1', name: 'T1', details: [], ...over })
const row = (over: Partial<TariffDetail>): TariffDetail => ({ chargeBand: 'UK', timeBand: 'any', ...over })

/** The cost of `r` under `t` as 4-place text, or the unbilled reason. */
function price(t: RatingTariff, r: UsageRecord = usage()): string {
  const found = findRate(t, r)
  if (!found) return 'no rate'
  const c = rateCall(t, found.rate, r)
  return 'unbilledReason' in c ? c.unbilledReason : formatMoney(c.cost)
}

test('minimum charge: 30 s at 0.05/min is 0.025, raised to costMin 0.10', () => {
  const t = tariff({ details: [row({ cost: 0.05, costMin: 0.1 })] })
  assert.is(price(t, usage({ durationSeconds: 30 })), '0.1000')
  // the tariff's baseCostMin applies when the row has none
  assert.is(price(tariff({ baseCostMin: 0.1, details: [row({ cost: 0.05 })] }), usage({ durationSeconds: 30 })), '0.1000')
  // no minimum: 0.05 × 30/60 = 0.025 exactly
  assert.is(price(tariff({ details: [row({ cost: 0.05 })] }), usage({ durationSeconds: 30 })), '0.0250')
})

test('duration rounded up to baseRoundSeconds, then at least baseDurationMin', () => {
  // 61 s rounded up to 60 s steps = 120 s; 0.05 × 2 min = 0.10
  const perMinute = tariff({ baseRoundSeconds: 60, details: [row({ cost: 0.05 })] })
  assert.is(price(perMinute, usage({ durationSeconds: 61 })), '0.1000')
  assert.is(price(perMinute, usage({ durationSeconds: 60 })), '0.0500')
  // per-second rounding with a 60 s minimum: 5 s → 60 s = 0.05; 61 s stays 61 s = 0.05 × 61/60 = 0.050833… → 0.0508
  const minimum = tariff({ baseRoundSeconds: 1, baseDurationMin: 60, details: [row({ cost: 0.05 })] })
  assert.is(price(minimum, usage({ durationSeconds: 5 })), '0.0500')
  assert.is(price(minimum, usage({ durationSeconds: 61 })), '0.0508')
  // the minimum applies to a zero-second record too
  assert.is(price(minimum, usage({ durationSeconds: 0 })), '0.0500')
  // fractional seconds are kept when no rounding is set: 30.5 s × 0.06/min = 0.0305
  assert.is(price(tariff({ details: [row({ cost: 0.06 })] }), usage({ durationSeconds: 30.5 })), '0.0305')
  const rated = rateCall(minimum, findRate(minimum, usage())!.rate, usage({ durationSeconds: 5 }))
  assert.is('ratedDuration' in rated && rated.ratedDuration, 60)
})

test('rounded up to the next baseRoundPence pence, once per call', () => {
  // 100 s at 0.0333/min = 0.0333 × 100/60 = 0.0555 exactly
  const plain = tariff({ details: [row({ cost: 0.0333 })] })
  assert.is(price(plain, usage({ durationSeconds: 100 })), '0.0555')
  // rounded up to 1p: 0.06
  const penny = tariff({ baseRoundPence: 1, details: [row({ cost: 0.0333 })] })
  assert.is(price(penny, usage({ durationSeconds: 100 })), '0.0600')
  // with a 0.004 connection: 0.004 + 0.0555 = 0.0595 → 0.06 (rounding each part would give 0.01 + 0.06 = 0.07)
  const once = tariff({ baseRoundPence: 1, details: [row({ cost: 0.0333, costConnection: 0.004 })] })
  assert.is(price(once, usage({ durationSeconds: 100 })), '0.0600')
  // 5p steps: 0.0595 → 0.10; an exact multiple stays: 60 s at 0.05 = 0.05
  assert.is(price(tariff({ baseRoundPence: 5, details: [row({ cost: 0.0333, costConnection: 0.004 })] }), usage({ durationSeconds: 100 })), '0.1000')
  assert.is(price(tariff({ baseRoundPence: 5, details: [row({ cost: 0.05 })] })), '0.0500')
  // baseRoundPenceAfterSurcharge takes precedence for the one final rounding: 0.0595 → 0.1 pence steps → 0.0600
  assert.is(price(tariff({ baseRoundPence: 5, baseRoundPenceAfterSurcharge: 0.1, details: [row({ cost: 0.0333, costConnection: 0.004 })] }), usage({ durationSeconds: 100 })), '0.0600')
  // without pence rounding, half up at the 4th place: 10 s at 0.0001/min = 0.0000166… → 0.0000; 0.0003/min × 10 s = 0.00005 → 0.0001
  assert.is(price(tariff({ details: [row({ cost: 0.0001 })] }), usage({ durationSeconds: 10 })), '0.0000')
  assert.is(price(tariff({ details: [row({ cost: 0.0003 })] }), usage({ durationSeconds: 10 })), '0.0001')
})

test('connection charge: 0.15 + 3 min × 0.02 = 0.21', () => {
  assert.is(price(tariff({ details: [row({ cost: 0.02, costConnection: 0.15 })] }), usage({ durationSeconds: 180 })), '0.2100')
  // inherited from baseCostConnection when the row has none
  assert.is(price(tariff({ baseCostConnection: 0.15, details: [row({ cost: 0.02 })] }), usage({ durationSeconds: 180 })), '0.2100')
  // a row's explicit 0 overrides the tariff's connection
  assert.is(price(tariff({ baseCostConnection: 0.15, details: [row({ cost: 0.02, costConnection: 0 })] }), usage({ durationSeconds: 180 })), '0.0600')
})

test('maximum cap: 60 min × 0.10 = 6.00 capped at 1.00; surcharges are added after the cap', () => {
  const capped = tariff({ details: [row({ cost: 0.1, costMax: 1 })] })
  assert.is(price(capped, usage({ durationSeconds: 3600 })), '1.0000')
  assert.is(price(tariff({ baseCostMax: 1, details: [row({ cost: 0.1 })] }), usage({ durationSeconds: 3600 })), '1.0000')
  // recording at 0.01/min + 0.02 connection: 1.00 + 0.60 + 0.02 = 1.62
  const recorded = tariff({ baseSurchargeCallRecording: 0.01, baseSurchargeCallRecordingConnection: 0.02, details: [row({ cost: 0.1, costMax: 1 })] })
  assert.is(price(recorded, usage({ durationSeconds: 3600, recorded: true })), '1.6200')
  assert.is(price(recorded, usage({ durationSeconds: 3600, recorded: false })), '1.0000')
})

test('origination surcharges: mobile 0.05/min + 0.01, payphone from the row', () => {
  const t = tariff({
    baseSurchargeMobileOrigination: 0.05,
    baseSurchargeMobileOriginationConnection: 0.01,
    details: [row({ cost: 0.02, surchargePayphoneOrigination: 0.1 })],
  })
  // 2 min: call 0.04; mobile 0.01 + 0.10 = 0.11 → 0.15
  assert.is(price(t, usage({ durationSeconds: 120, origination: 'mobile' })), '0.1500')
  // payphone 0.10 × 2 = 0.20 → 0.24
  assert.is(price(t, usage({ durationSeconds: 120, origination: 'payphone' })), '0.2400')
  assert.is(price(t, usage({ durationSeconds: 120, origination: 'voip' })), '0.0400')
  // a surcharge's own rounding method: mobile 0.01 + 0.05 × 7/60 = 0.015833… rounded up to the penny = 0.02; call 0.02 × 7/60 = 0.002333…
  const rounded = tariff({ ...t, baseSurchargeRoundingMobileOrigination: 'Round Up Penny' })
  assert.is(price(rounded, usage({ durationSeconds: 7, origination: 'mobile' })), '0.0223')
})

test('time bands in UTC: day Mon-Fri 08:00-18:00, evening other weekday times, weekend', () => {
  const at = (s: string) => timeBandOf(parseDatetime(s)!)
  assert.is(at('2026-01-05T08:00:00'), 'day')
  assert.is(at('2026-01-05T07:59:59'), 'evening')
  assert.is(at('2026-01-09T17:59:59'), 'day') // Friday
  assert.is(at('2026-01-09T18:00:00'), 'evening')
  assert.is(at('2026-01-10T12:00:00'), 'weekend') // Saturday
  assert.is(at('2026-01-11T23:59:59'), 'weekend') // Sunday
  assert.is(at('2026-01-12T00:00:00'), 'evening') // Monday
  assert.is(at('2026-01-05T19:30:00+02:00'), 'day') // 17:30 UTC
  assert.is(at('2024-02-29T12:00:00'), 'day') // a Thursday

  const t = tariff({
    details: [
      row({ timeBand: 'day', cost: 0.05 }),
      row({ timeBand: 'evening', cost: 0.02 }),
      row({ timeBand: 'weekend', cost: 0.01 }),
      row({ timeBand: 'any', cost: 0.03 }),
      row({ chargeBand: 'Mobile', timeBand: 'any', cost: 0.12 }),
    ],
  })
  assert.is(price(t, usage({ startTime: MONDAY_9AM })), '0.0500')
  assert.is(price(t, usage({ startTime: '2026-01-05T18:00:00' })), '0.0200')
  assert.is(price(t, usage({ startTime: '2026-01-10T09:00:00' })), '0.0100')
  // only an `any` row for Mobile (charge band compared ignoring case): it matches every band
  assert.is(price(t, usage({ chargeBand: 'mobile', startTime: '2026-01-10T09:00:00' })), '0.1200')
  // `any` is used when the exact band has no row
  const dayOnly = tariff({ details: [row({ timeBand: 'day', cost: 0.05 }), row({ timeBand: 'any', cost: 0.03 })] })
  assert.is(price(dayOnly, usage({ startTime: '2026-01-10T09:00:00' })), '0.0300')
  assert.is(findRate(dayOnly, usage({ startTime: '2026-01-10T09:00:00' }))?.timeBand, 'weekend')
  // a single-rate tariff ignores the time of day: its `day` row applies at the weekend too, band `any`
  const single = tariff({ singleRate: 'Single', details: [row({ timeBand: 'day', cost: 0.04 })] })
  assert.is(price(single, usage({ startTime: '2026-01-10T09:00:00' })), '0.0400')
  assert.is(findRate(single, usage())?.timeBand, 'any')
})

test('rates by date, and the base rate when no row matches', () => {
  const t = tariff({
    baseCost: 0.07,
    details: [
      row({ endDate: '2025-12-31' as DateOnly, cost: 0.09 }),
      row({ startDate: '2026-01-01' as DateOnly, cost: 0.05 }),
    ],
  })
  assert.is(price(t, usage({ startTime: '2025-12-31T23:59:59' })), '0.0900')
  assert.is(price(t, usage({ startTime: '2026-01-01T00:00:00' })), '0.0500')
  // overlapping rows: the later start wins
  const overlap = tariff({ details: [row({ cost: 0.09 }), row({ startDate: '2026-01-01' as DateOnly, cost: 0.05 })] })
  assert.is(price(overlap), '0.0500')
  // unknown band: base rate 0.07/min, with the base connection and minimum
  assert.is(price(t, usage({ chargeBand: 'Satellite' })), '0.0700')
  assert.is(findRate(t, usage({ chargeBand: 'Satellite' }))?.rate.source, 'base')
  // no row and no baseCost: no rate
  assert.is(price(tariff({ details: [row({ cost: 0.05 })] }), usage({ chargeBand: 'Satellite' })), 'no rate')
})

test('per MB, per event, per call and per second tariffs', () => {
  // 1.5 MB = 1,572,864 bytes at 0.02/MB = 0.03
  const data = tariff({ baseType: 'Per MB', baseRoundBytes: 1024, details: [row({ chargeBand: 'Data', cost: 0.02 })] })
  assert.is(price(data, usage({ chargeBand: 'Data', bytes: 1_572_864, durationSeconds: 0 })), '0.0300')
  // 1,000,000 bytes → 977 KB = 1,000,448 bytes; 0.02 × 1,000,448 / 1,048,576 = 0.019082… → 0.0191
  assert.is(price(data, usage({ chargeBand: 'Data', bytes: 1_000_000 })), '0.0191')
  assert.is(price(data, usage({ chargeBand: 'Data', bytes: null })), 'missing usage quantity')
  // 3 events rounded up to 5 at 0.05 = 0.25; a record without a count is one event
  const sms = tariff({ baseType: 'Per Event', baseRoundEvents: 5, details: [row({ cost: 0.05 })] })
  assert.is(price(sms, usage({ events: 3 })), '0.2500')
  assert.is(price(tariff({ baseType: 'Per Event', details: [row({ cost: 0.05 })] })), '0.0500')
  // per call: 0.10 + 0.05 whatever the duration
  const flat = tariff({ baseType: 'Per Call', details: [row({ cost: 0.05, costConnection: 0.1 })] })
  assert.is(price(flat, usage({ durationSeconds: 7200 })), '0.1500')
  // per second: 45 s × 0.001 = 0.045
  assert.is(price(tariff({ baseType: 'Per Second', details: [row({ cost: 0.001 })] }), usage({ durationSeconds: 45 })), '0.0450')
  assert.is(price(tariff({ baseType: 'Per Fortnight', details: [row({ cost: 0.001 })] })), 'unsupported base type')
})

test('tariff numbers convert to exact Money through their decimal text', () => {
  assert.is(amountOf(0.1, 'x'), parseMoney('0.1'))
  assert.is(amountOf(0.012345, 'x'), 123n as Money) // half up to 4 places
  assert.is(amountOf(0.00005, 'x'), 1n as Money)
  assert.is(amountOf(1e-7, 'x'), 0n as Money)
  assert.is(amountOf(-2.5, 'x'), -25_000n as Money)
  assert.is(amountOf(null, 'x'), null)
  assert.throws(() => amountOf(Infinity, 'baseCost'), /baseCost/)
})

test('numbers normalise: spaces, dashes, +44, 0044 and bare 44 are UK national form', () => {
  for (const n of ['01632 960000', '(0)1632 960000', '(01632) 960 000', '01632-960-000', '+44 1632 960000', '+44 (0)1632 960000', '0044 1632 960000', '441632960000']) {
    assert.is(normaliseNumber(n), '01632960000', n)
  }
  assert.is(normaliseNumber('+33 1 23 45 67 89'), '0033123456789')
  assert.is(normaliseNumber('4412'), '4412')
  // Plain digits take a quicker path; any text normalises as the general rules say.
  const general = (raw: string) => {
    const s = raw.replace(/[\s\-.]/g, '').replace(/^(\+\d{1,3}|00\d{1,3})\(0\)/, '$1').replace(/[()]/g, '')
    const t = s.startsWith('+') ? `00${s.slice(1)}` : s
    return t.startsWith('0044') ? `0${t.slice(4)}` : /^44[1-9]\d{8,9}$/.test(t) ? `0${t.slice(2)}` : t
  }
  const chars = fc.constantFrom(...'0123456789+-() .#4'.split(''))
  // Digits and spaces (how numbers are often stored) take a quicker path too.
  const spaced = fc.stringMatching(/^(44|0044)?[\d ]{0,14}$/)
  fc.assert(fc.property(fc.oneof(fc.stringMatching(/^(44|0044|\+44)?\d{0,12}$/), spaced, fc.string({ unit: chars, maxLength: 16 })), (raw) => assert.is(normaliseNumber(raw), general(raw), raw)))
})

const n1: RatingNumber = { numberID: 'n1', customerID: 'c1', number: '01632 960000', CDRNumber2: '+44 20-7946-0001', nationalTariff: 'Business' }
const n2: RatingNumber = { numberID: 'n2', customerID: 'c2', number: '0113 496 0000', CDRNumber: '01632 960000' }

test('CDRNumber matching ignores spaces and dashes; `number` beats a CDRNumber', () => {
  const index = buildNumberIndex([n2, n1])
  const m = (callingNumber: string) => matchNumber(index, usage({ callingNumber }))
  const plain = { chargeBand: null, origination: null }
  assert.equal(m('020 7946 0001'), { number: n1, matchedBy: 'CDRNumber2', ...plain })
  assert.equal(m('441632960000'), { number: n1, matchedBy: 'number', ...plain })
  assert.equal(m('0113-496-0000'), { number: n2, matchedBy: 'number', ...plain })
  assert.equal(m('0113 496 0001'), { unmatchedReason: 'no matching number' })
  // inbound records belong to the dialled number
  assert.equal(matchNumber(index, usage({ callClass: 'inbound', callingNumber: '', dialledNumber: '+442079460001' })), { number: n1, matchedBy: 'CDRNumber2', ...plain })
})

test('ignored traffic by direction and from its date', () => {
  const ignores: IgnoreTrafficEntry[] = [
    { number: '01632-960000', type: 'Outbound Only', fromDate: '2026-01-06' as DateOnly },
    { number: '0113 496 0000', type: 'All Traffic', fromDate: null },
  ]
  const index = buildNumberIndex([n1, n2], ignores)
  const reason = (over: Parameters<typeof usage>[0]) => {
    const r = matchNumber(index, usage(over))
    return 'unmatchedReason' in r ? r.unmatchedReason : r.number.numberID
  }
  assert.is(reason({ startTime: '2026-01-05T09:00:00' }), 'n1')
  assert.is(reason({ startTime: '2026-01-06T00:00:00' }), 'ignored traffic')
  // a call under n1's CDR number is n1's traffic too
  assert.is(reason({ startTime: '2026-01-07T09:00:00', callingNumber: '02079460001' }), 'ignored traffic')
  assert.is(reason({ startTime: '2026-01-07T09:00:00', callClass: 'inbound', dialledNumber: '01632960000' }), 'n1')
  assert.is(reason({ callingNumber: '01134960000' }), 'ignored traffic')
  assert.is(reason({ callClass: 'inbound', dialledNumber: '01134960000' }), 'ignored traffic')
})

function context(): RatingContext {
  const business = tariff({
    id: 't-business',
    name: 'Business',
    baseRoundPence: 1,
    details: [row({ timeBand: 'day', cost: 0.05, costConnection: 0.01 }), row({ chargeBand: 'Mobile', cost: 0.1 })],
  })
  const basic = tariff({ id: 't-basic', name: 'Basic' })
  const customers = new Map<string, CustomerTariffSettings>([
    ['c1', { defaultMobileTariff: 'Business', defaultNationalMarkup: 10, defaultInternationalMarkup: 20 }],
    ['c2', { defaultNationalTariff: 'Basic', fallbackMarkup: 50 }],
  ])
  return {
    numbers: buildNumberIndex([{ ...n1, internationalMarkup: 25 }, n2]),
    customers,
    tariffs: new Map([['Business', business], ['Basic', basic]]),
  }
}

test('rateRecord: the number’s class tariff, else the customer’s default', () => {
  const ctx = context()
  // n1's national tariff: 0.01 + 2.5 min × 0.05 = 0.135 → up to the penny 0.14
  assert.equal(rateRecord(usage({ durationSeconds: 150 }), ctx), {
    numberID: 'n1',
    customerID: 'c1',
    tariffID: 't-business',
    pricingFeatureID: null,
    cost: parseMoney('0.14'),
    ratedDuration: 150,
    ratedBytes: null,
    ratedEvents: null,
    timeBand: 'day',
    chargeBand: 'UK',
    pricedBy: 'rate',
    tariffDetailID: null,
    markupPercent: null,
    timed: true,
    allowanceSeconds: null,
    origination: 'fixed',
  })
  // mobile class: n1 has no mobileTariff, customer c1's defaultMobileTariff is Business: 1 min × 0.10
  const mobile = rateRecord(usage({ callClass: 'mobile', chargeBand: 'Mobile' }), ctx)
  assert.ok(isRated(mobile) && formatMoney(mobile.cost) === '0.1000' && mobile.tariffID === 't-business')
})

test('rateRecord: markups when the tariff has no rate', () => {
  const ctx = context()
  const cost = (over: Parameters<typeof usage>[0]) => {
    const r = rateRecord(usage(over), ctx)
    return isRated(r) ? `${formatMoney(r.cost)} ${r.pricedBy} ${r.tariffID}` : 'unbilledReason' in r ? r.unbilledReason : r.ignoredReason
  }
  // Business has no national evening rate and no baseCost; customer c1's defaultNationalMarkup 10%: 0.20 → 0.22
  assert.is(cost({ startTime: '2026-01-05T20:00:00', wholesaleCost: parseMoney('0.2') }), '0.2200 markup t-business')
  // international: no tariff at all; n1's internationalMarkup 25% beats the customer's 20%: 0.20 → 0.25
  assert.is(cost({ callClass: 'international', wholesaleCost: parseMoney('0.2') }), '0.2500 markup null')
  // n2 (customer c2): Basic has no rates; only the customer's fallbackMarkup 50%: 0.2 → 0.30
  assert.is(cost({ callingNumber: '01134960000', wholesaleCost: parseMoney('0.2') }), '0.3000 markup t-basic')
  // a markup but no wholesale cost on the record
  assert.is(cost({ startTime: '2026-01-05T20:00:00' }), 'no tariff or markup')
  // nothing at all: c2 has no mobile tariff; only its fallbackMarkup → still needs a wholesale cost
  assert.is(cost({ callingNumber: '01134960000', callClass: 'mobile' }), 'no tariff or markup')
  assert.is(cost({ callingNumber: '07700 900000' }), 'no matching number')
  const unbilled = rateRecord(usage({ startTime: '2026-01-05T20:00:00' }), ctx)
  assert.equal(unbilled, { unbilledReason: 'no tariff or markup', numberID: 'n1', customerID: 'c1' })
})

test.run()
