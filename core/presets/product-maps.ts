import * as v from 'valibot'
import { parseMoney, type Money } from '../money/money.js'

/**
 * The presets maps that carry product rules (contract 11): feature templates, discount schemes,
 * annual increase profiles and the CPI they may refer to. Each map's names are names of its list
 * (`standardFeatures`, `discountSchemes`, `annualIncreaseProfiles`), and each name of those lists
 * needs an entry, so a feature can never name a rule the engine does not know.
 */

/** A feature discount scheme: a percentage of each recurring charge, or an amount off each unit's. */
export interface DiscountScheme {
  /** Percent of the charge, 0..100, in money units (10% → 100000n). */
  readonly percent: Money | null
  /** Amount off the unit price per period, pro-rated like the charge. */
  readonly amount: Money | null
  /** How long it lasts from when it starts when the feature gives no end date; null: while set. */
  readonly months: number | null
}

/** An annual increase profile: a percentage (CPI plus a margin, or fixed), or an amount added. */
export interface IncreaseProfile {
  /** Percent in money units, CPI already added in; null for an amount profile. */
  readonly percent: Money | null
  readonly amount: Money | null
  /** The margin over CPI of a CPI profile (its percent follows the presets' `cpi`); else null. */
  readonly cpiPlus: Money | null
}

/** A feature template: wire values of feature fields, checked against the features resource at start. */
export type FeatureTemplate = Readonly<Record<string, unknown>>

export interface ProductMaps {
  readonly standardFeatures: Readonly<Record<string, FeatureTemplate>>
  readonly featureDiscountSchemes: Readonly<Record<string, DiscountScheme>>
  readonly annualIncreaseProfiles: Readonly<Record<string, IncreaseProfile>>
  /** The CPI percentage profiles written `{"percent": "cpi"}` use, as decimal text. */
  readonly cpi: string
  /** How many times its `expectedSpend` a month's call charges pass to raise a spend alert (contract 17.7), as decimal text. */
  readonly expectedSpendAlertRatio: string
}

const decimal = v.pipe(v.string(), v.regex(/^\d{1,6}(\.\d{1,4})?$/, 'a decimal such as "3.9"'))
const percent = v.pipe(decimal, v.check((s) => Number(s) <= 100, 'at most 100'))
const months = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1200))
const mapName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))

const SchemeEntry = v.union([
  v.strictObject({ percent, months: v.optional(months) }),
  v.strictObject({ amount: decimal, months: v.optional(months) }),
])
const ProfileEntry = v.union([
  v.strictObject({ percent: v.union([decimal, v.literal('cpi')]), plus: v.optional(decimal) }),
  v.strictObject({ amount: decimal }),
])

/** The maps' part of the presets file's schema. */
export const productMapsFile = {
  /** Replace the default templates; values are checked as a feature create body would be. */
  standardFeatures: v.optional(v.record(mapName, v.record(v.string(), v.unknown()))),
  featureDiscountSchemes: v.optional(v.record(mapName, SchemeEntry)),
  annualIncreaseProfiles: v.optional(v.record(mapName, ProfileEntry)),
  cpi: v.optional(decimal),
  expectedSpendAlertRatio: v.optional(decimal),
}

type SchemeInput = v.InferOutput<typeof SchemeEntry>
type ProfileInput = v.InferOutput<typeof ProfileEntry>
export interface ProductMapsInput {
  readonly standardFeatures?: Record<string, Record<string, unknown>>
  readonly featureDiscountSchemes?: Record<string, SchemeInput>
  readonly annualIncreaseProfiles?: Record<string, ProfileInput>
  readonly cpi?: string
  readonly expectedSpendAlertRatio?: string
}

/** The shipped entries of the shipped names (default-presets.ts). */
export const defaultProductMaps: Required<ProductMapsInput> = {
  standardFeatures: {
    'Line Rental': { featureType: 'Line Rental', serviceCharge: '18.99', serviceChargeInterval: 'Monthly' },
    'Broadband 80/20': { featureType: 'Broadband', serviceCharge: '35.00', serviceChargeInterval: 'Monthly', connectionCharge: '50.00' },
    'SIP Channel': { featureType: 'SIP Channel', serviceCharge: '4.50', serviceChargeInterval: 'Monthly' },
    'Hosted Seat': { featureType: 'Hosted Seat', serviceCharge: '12.50', serviceChargeInterval: 'Monthly', connectionCharge: '25' },
    'Call Recording': { featureType: 'Call Recording', serviceCharge: '3.00', serviceChargeInterval: 'Monthly' },
    'Static IP': { featureType: 'Static IP', serviceCharge: '5.00', serviceChargeInterval: 'Monthly', connectionCharge: '10.00' },
  },
  featureDiscountSchemes: {
    None: { percent: '0' },
    'First Month Free': { percent: '100', months: 1 },
    '10% First Year': { percent: '10', months: 12 },
    '3 Months Half Price': { percent: '50', months: 3 },
  },
  annualIncreaseProfiles: {
    'CPI + 3.9%': { percent: 'cpi', plus: '3.9' },
    'Fixed £ Increase': { amount: '1.00' },
    'Fixed 5%': { percent: '5' },
    'No Increase': { percent: '0' },
  },
  // The UK CPI rate published in October 2026 for September; an operator sets its own each year.
  cpi: '3.8',
  // Twice the expected spend: a month's bill that doubles is the classic sign of fraud (contract 17.7).
  expectedSpendAlertRatio: '2',
}

const money = (text: string): Money => parseMoney(text)!

/**
 * The maps of a presets file over a base (a map the file gives replaces the base's whole; a new
 * `cpi` moves every CPI profile), with every name its list holds checked to have an entry.
 * A map's names join its list; a map given without its list (`listsGiven`) is its list.
 * Throws naming the first entry at fault.
 */
export function mergeProductMaps(
  file: ProductMapsInput,
  base: ProductMaps | null,
  lists: Record<string, readonly string[]>,
  listsGiven: ReadonlySet<string> = new Set(),
): ProductMaps {
  const cpi = file.cpi ?? base?.cpi ?? defaultProductMaps.cpi
  const standardFeatures = file.standardFeatures ?? base?.standardFeatures ?? defaultProductMaps.standardFeatures
  const schemes = file.featureDiscountSchemes ? mapValues(file.featureDiscountSchemes, scheme) : (base?.featureDiscountSchemes ?? mapValues(defaultProductMaps.featureDiscountSchemes, scheme))
  const given = file.annualIncreaseProfiles ? mapValues(file.annualIncreaseProfiles, profile) : (base?.annualIncreaseProfiles ?? mapValues(defaultProductMaps.annualIncreaseProfiles, profile))
  const profiles = mapValues(given, (p) => (p.cpiPlus === null ? p : { ...p, percent: (money(cpi) + p.cpiPlus) as Money }))
  for (const [list, map, given] of [
    ['standardFeatures', standardFeatures, file.standardFeatures],
    ['discountSchemes', schemes, file.featureDiscountSchemes],
    ['annualIncreaseProfiles', profiles, file.annualIncreaseProfiles],
  ] as const) {
    const names = given && !listsGiven.has(list) ? [] : (lists[list] ?? [])
    lists[list] = [...new Set([...names, ...Object.keys(map)])]
    const missing = lists[list].find((name) => !(name in map))
    if (missing !== undefined) {
      const mapName = list === 'discountSchemes' ? 'featureDiscountSchemes' : list
      throw new Error(`presets file: ${list} names ${JSON.stringify(missing)} but ${mapName} has no entry for it`)
    }
  }
  const expectedSpendAlertRatio = file.expectedSpendAlertRatio ?? base?.expectedSpendAlertRatio ?? defaultProductMaps.expectedSpendAlertRatio
  return { standardFeatures, featureDiscountSchemes: schemes, annualIncreaseProfiles: profiles, cpi, expectedSpendAlertRatio }
}

const mapValues = <A, B>(map: Readonly<Record<string, A>>, f: (a: A) => B): Record<string, B> =>
  Object.fromEntries(Object.entries(map).map(([name, a]) => [name, f(a)]))

function scheme(s: SchemeInput): DiscountScheme {
  return {
    percent: 'percent' in s ? money(s.percent) : null,
    amount: 'amount' in s ? money(s.amount) : null,
    months: s.months ?? null,
  }
}

/** A profile as written; a CPI profile's percent is set by `mergeProductMaps`. */
function profile(p: ProfileInput): IncreaseProfile {
  if ('amount' in p) return { percent: null, amount: money(p.amount), cpiPlus: null }
  const plus = money(p.plus ?? '0')
  if (p.percent === 'cpi') return { percent: null, amount: null, cpiPlus: plus }
  return { percent: (money(p.percent) + plus) as Money, amount: null, cpiPlus: null }
}
