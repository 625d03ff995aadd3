import { parseMoney, ZERO, type Money } from '../money/money.js'
import type { Rate } from './find-rate.js'
import {
  addFractions,
  ceilDiv,
  ceilToStep,
  fraction,
  fromMoney,
  maxFraction,
  minFraction,
  roundToMoney,
  roundToStep,
  scale,
  type Fraction,
} from './fraction.js'
import { baseTypeOf, BYTES_PER_MB, rateSurchargeKinds, type RatingTariff, type RateSurchargeKind } from './rating-tariff.js'
import type { UsageRecord } from './usage-record.js'
import { amountOf, stepOf, type WireNumber } from './wire-amount.js'

/** What pricing reads of a usage record. */
export type CallUsage = Pick<UsageRecord, 'durationSeconds' | 'bytes' | 'events' | 'origination' | 'recorded'>

export interface CallCost {
  /** The call's price: rounded up to `baseRoundPence` pence when set, else half up to 4 places. */
  readonly cost: Money
  /** Connection + rate × quantity, kept within min/max, before access charge, surcharges and pence rounding (half up to 4 places). */
  readonly callCharge: Money
  /** Seconds charged (rounded up, at least the minimum) for time-based tariffs; the record's duration otherwise. */
  readonly ratedDuration: number
  /** Bytes charged (rounded up) on `Per MB` tariffs, else null. */
  readonly ratedBytes: number | null
  /** Events charged (rounded up) on `Per Event` tariffs, else null. */
  readonly ratedEvents: number | null
  /** Priced by time (`Per Minute`, `Per Second`): a discount plan allowance can cover it. */
  readonly timed: boolean
}

export type CallCostFailure = { readonly unbilledReason: 'missing usage quantity' | 'unsupported base type' }

/** Multiplier of a per-unit price: price × num / den. */
interface Quantity {
  readonly num: bigint
  readonly den: bigint
}

const SURCHARGE_APPLIES: Readonly<Record<RateSurchargeKind, (u: CallUsage) => boolean>> = {
  MobileOrigination: (u) => u.origination === 'mobile',
  PayphoneOrigination: (u) => u.origination === 'payphone',
  CallRecording: (u) => u.recorded,
}

/**
 * Prices one call at `rate` under `tariff`, exactly (bigint rationals; nothing rounds until the end):
 *
 * 1. Quantity by `baseType`: `Per Minute` (default) / `Per Second`: the duration rounded up to
 *    `baseRoundSeconds`, then at least `baseDurationMin`, charged per minute / second pro rata;
 *    `Per MB`: bytes rounded up to `baseRoundBytes`, per 1,048,576 bytes; `Per Event`: events
 *    (1 when the record has none) rounded up to `baseRoundEvents`; `Per Call`: one.
 * 2. Call charge = connection + cost × quantity, raised to `costMin`, then capped at `costMax`
 *    (the cap wins if they cross). With `allowanceMs` (a discount plan allowance's share of the
 *    rated duration, contract 11) a time-priced call's quantity is the rated duration less the
 *    allowance, and `costMin` does not apply (the connection charge still does).
 * 3. Access charge (`baseAccessChargeConnection` + `baseAccessCharge` × quantity) and each
 *    applicable surcharge (mobile or payphone origination, call recording: connection + rate ×
 *    quantity) are added, each rounded by its own `baseRounding...` method when one is set.
 * 4. The total is rounded up to the next `baseRoundPenceAfterSurcharge` pence, else
 *    `baseRoundPence` pence, once per call; with neither it is rounded half up to 4 places.
 */
export function rateCall(tariff: RatingTariff, rate: Rate, usage: CallUsage, allowanceMs = 0n): CallCost | CallCostFailure {
  const p = pricingOf(tariff)
  const baseType = p.baseType
  if (baseType === null) return { unbilledReason: 'unsupported base type' }
  let ratedDuration = usage.durationSeconds
  let ratedBytes: number | null = null
  let ratedEvents: number | null = null
  let q: Quantity
  const timed = baseType === 'Per Minute' || baseType === 'Per Second'
  let memo: Map<number, CallCost> | null = null
  let key = 0
  if (timed) {
    const ms = ratedMsNumber(p, usage)
    // Wholly charged or wholly covered, the price follows from the rated milliseconds and the
    // surcharges that apply: calls rounded to a minute repeat it, and pricing each again in
    // bigint rationals was the largest part of what rating allocated, 0.45 KB a call
    // (bench/RESULTS.md, session 21).
    if (ms !== null && (allowanceMs <= 0n || allowanceMs >= BigInt(ms))) {
      memo = memoOf(tariff, rate)
      key = (ms * 2 + (allowanceMs > 0n ? 1 : 0)) * 6 + surchargeCase(usage)
      const known = memo.get(key)
      if (known) return known
    }
    const rated = ms === null ? ratedMsOf(p, usage) : BigInt(ms)
    ratedDuration = Number(rated) / 1000
    // An allowance covers the first seconds; the call is charged for the rest, pro rata.
    const charged = allowanceMs >= rated ? 0n : rated - (allowanceMs > 0n ? allowanceMs : 0n)
    q = { num: charged, den: baseType === 'Per Minute' ? 60_000n : 1000n }
  } else if (baseType === 'Per MB') {
    if (usage.bytes === null) return { unbilledReason: 'missing usage quantity' }
    const bytes = roundUp(BigInt(usage.bytes), p.roundBytes)
    ratedBytes = Number(bytes)
    q = { num: bytes, den: BYTES_PER_MB }
  } else if (baseType === 'Per Event') {
    const events = roundUp(BigInt(usage.events ?? 1), p.roundEvents)
    ratedEvents = Number(events)
    q = { num: events, den: 1n }
  } else {
    q = { num: 1n, den: 1n }
  }

  const a = amountsOf(tariff)
  // Two-part pricing (contract 17.7): the first `baseInitialDuration` seconds cost
  // `baseInitialCost` whatever part of them is used, the rest its own connection and the rate.
  // Not for a call an allowance shares: the allowance covers its first seconds instead.
  let charge =
    timed && a.initial !== null && allowanceMs <= 0n
      ? twoPart(a.initial, rate.cost, q)
      : component(rate.costConnection, rate.cost, q)
  // The minimum is for a charged call: one an allowance covers pays its connection, no more.
  if (rate.costMin !== null && allowanceMs <= 0n) charge = maxFraction(charge, fromMoney(rate.costMin))
  if (rate.costMax !== null) charge = minFraction(charge, fromMoney(rate.costMax))

  let total = charge
  if (a.access !== null || a.accessConnection !== null) {
    const amount = component(a.accessConnection ?? ZERO, a.access ?? ZERO, q)
    total = addFractions(total, roundBy(amount, tariff.baseRoundingAccessCharge))
  }
  for (const k of rateSurchargeKinds) {
    if (!SURCHARGE_APPLIES[k](usage)) continue
    const s = rate.surcharges[k]
    total = addFractions(total, roundBy(component(s.connection, s.perUnit, q), tariff[`baseSurchargeRounding${k}`]))
  }

  // N pence = N/100 pounds = (N in ten-thousandths) / 100 ten-thousandths of a pound
  if (a.pence !== null) total = ceilToStep(total, fraction(a.pence, 100n))
  const cost: CallCost = { cost: roundToMoney(total), callCharge: roundToMoney(charge), ratedDuration, ratedBytes, ratedEvents, timed }
  if (memo) remember(tariff, rate, memo, key, cost)
  return cost
}

/** Milliseconds a time-priced call is rated for: its duration rounded up to `baseRoundSeconds`, at least `baseDurationMin`. */
function ratedMsOf(p: TariffPricing, usage: Pick<CallUsage, 'durationSeconds'>): bigint {
  const ms = roundUp(BigInt(Math.round(usage.durationSeconds * 1000)), p.roundMs)
  return ms > p.minMs ? ms : p.minMs
}

/**
 * `ratedMsOf` in whole numbers, or null when the tariff's steps are too long for them: a
 * duration has at most 3 decimals and 9 whole digits (usage-record.ts), so with steps up to
 * `SMALL_MS` every value is an integer below 2^42, exact.
 */
function ratedMsNumber(p: TariffPricing, usage: Pick<CallUsage, 'durationSeconds'>): number | null {
  if (!p.small) return null
  const raw = Math.round(usage.durationSeconds * 1000)
  const step = p.roundMsNumber
  const over = step > 0 ? raw % step : 0
  const ms = over === 0 ? raw : raw - over + step
  return ms > p.minMsNumber ? ms : p.minMsNumber
}

/** A step that fits `ratedMsNumber`: 2^40 ms, about 35 years. */
const SMALL_MS = 2n ** 40n

/** Which surcharges a call's usage brings in (`SURCHARGE_APPLIES`), as 0-5: origination × recorded. */
const surchargeCase = (u: CallUsage): number => (u.origination === 'mobile' ? 1 : u.origination === 'payphone' ? 2 : 0) + (u.recorded ? 3 : 0)

/**
 * Prices remembered over every rate, at most (a few MB): a rate's calls come in a few rounded
 * durations, but a tariff of thousands of destinations priced by the second would otherwise keep
 * one price for nearly every call it rates.
 */
const MEMO_SIZE = 16_384

/**
 * Timed prices by rated milliseconds, covered or not, and surcharge case: per rate, for its
 * tariff. Replaced whole when full, which lets every price in it go at once.
 */
let memos = new WeakMap<Rate, { readonly tariff: RatingTariff; readonly prices: Map<number, CallCost> }>()
let remembered = 0

function memoOf(tariff: RatingTariff, rate: Rate): Map<number, CallCost> {
  let memo = memos.get(rate)
  // A rate belongs to one tariff (find-rate.ts); one priced under another tariff starts afresh.
  if (!memo || memo.tariff !== tariff) memos.set(rate, (memo = { tariff, prices: new Map() }))
  return memo.prices
}

function remember(tariff: RatingTariff, rate: Rate, memo: Map<number, CallCost>, key: number, cost: CallCost): void {
  if (remembered >= MEMO_SIZE) {
    memos = new WeakMap()
    remembered = 0
    memo = memoOf(tariff, rate)
  }
  memo.set(key, cost)
  remembered++
}

/** What pricing reads of a tariff besides its rates, as exact values. */
interface TariffPricing {
  readonly baseType: ReturnType<typeof baseTypeOf>
  readonly roundMs: bigint | null
  readonly minMs: bigint
  /** Both steps fit whole numbers (`ratedMsNumber`), as these two. */
  readonly small: boolean
  readonly roundMsNumber: number
  readonly minMsNumber: number
  readonly roundBytes: bigint | null
  readonly roundEvents: bigint | null
}

/** The tariff's per-call amounts (read apart from the steps: an unreadable amount throws, as it did when read per call). */
interface TariffAmounts {
  /** Two-part pricing, when `baseInitialCost` and `baseInitialDuration` are both set. */
  readonly initial: InitialPart | null
  readonly access: Money | null
  readonly accessConnection: Money | null
  readonly pence: Money | null
}

const pricings = new WeakMap<RatingTariff, TariffPricing>()
const amounts = new WeakMap<RatingTariff, TariffAmounts>()

/** The tariff's steps and amounts, read from their decimal text once per tariff rather than per call. */
function pricingOf(tariff: RatingTariff): TariffPricing {
  let p = pricings.get(tariff)
  if (!p) {
    const roundMs = times1000(stepOf(tariff.baseRoundSeconds))
    const minMs = times1000(stepOf(tariff.baseDurationMin)) ?? 0n
    p = {
      baseType: baseTypeOf(tariff),
      roundMs,
      minMs,
      small: (roundMs ?? 0n) <= SMALL_MS && minMs <= SMALL_MS,
      roundMsNumber: Number(roundMs ?? 0n),
      minMsNumber: Number(minMs),
      roundBytes: stepOf(tariff.baseRoundBytes),
      roundEvents: stepOf(tariff.baseRoundEvents),
    }
    pricings.set(tariff, p)
  }
  return p
}

function amountsOf(tariff: RatingTariff): TariffAmounts {
  let a = amounts.get(tariff)
  if (!a) {
    a = {
      initial: initialPartOf(tariff),
      access: amountOf(tariff.baseAccessCharge, 'baseAccessCharge'),
      accessConnection: amountOf(tariff.baseAccessChargeConnection, 'baseAccessChargeConnection'),
      pence:
        positive(amountOf(tariff.baseRoundPenceAfterSurcharge, 'baseRoundPenceAfterSurcharge')) ??
        positive(amountOf(tariff.baseRoundPence, 'baseRoundPence')),
    }
    amounts.set(tariff, a)
  }
  return a
}

/** The first part of a two-part price: its cost and length, and the connection of the rest. */
interface InitialPart {
  readonly cost: Money
  readonly ms: bigint
  readonly secondaryConnection: Money
}

function initialPartOf(tariff: RatingTariff): InitialPart | null {
  // The catalogue has `baseInitialCost` as Text (billing-api.md): decimal text is read as money.
  const raw = tariff.baseInitialCost as WireNumber | string
  const cost = typeof raw === 'string' ? parseMoney(raw.trim()) : amountOf(raw, 'baseInitialCost')
  const seconds = stepOf(tariff.baseInitialDuration)
  if (cost === null || seconds === null) return null
  return { cost, ms: seconds * 1000n, secondaryConnection: amountOf(tariff.baseCostSecondaryConnection, 'baseCostSecondaryConnection') ?? ZERO }
}

/** initial cost, plus for the time past the initial part its connection and perUnit × that time. */
function twoPart(initial: InitialPart, perUnit: Money, q: Quantity): Fraction {
  const rest = q.num - initial.ms
  const first = fromMoney(initial.cost)
  return rest > 0n ? addFractions(first, component(initial.secondaryConnection, perUnit, { num: rest, den: q.den })) : first
}

/** connection + perUnit × quantity, exactly. */
const component = (connection: Money, perUnit: Money, q: Quantity): Fraction =>
  addFractions(fromMoney(connection), scale(perUnit, q.num, q.den))

const roundUp = (value: bigint, step: bigint | null): bigint => (step ? ceilDiv(value, step) * step : value)
const times1000 = (s: bigint | null): bigint | null => (s === null ? null : s * 1000n)
const positive = (m: Money | null): Money | null => (m !== null && m > 0n ? m : null)

const PENNY = fraction(100n)
const TENTH_PENNY = fraction(10n)

/** A component's own rounding method (`roundingMethods` presets); unknown or unset means none. */
function roundBy(amount: Fraction, method: string | null | undefined): Fraction {
  switch ((method ?? '').trim()) {
    case 'Round Up Penny':
      return ceilToStep(amount, PENNY)
    case 'Round Nearest Penny':
      return roundToStep(amount, PENNY)
    case 'Round Up 0.1p':
      return ceilToStep(amount, TENTH_PENNY)
    default:
      return amount
  }
}
