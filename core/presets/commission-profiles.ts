import * as v from 'valibot'
import { parseMoney, type Money } from '../money/money.js'

/**
 * The presets map `commissionProfiles` (contract 16.3): name → `{"percent": "5"}`, the percentage
 * of a feature's charges (calls, or connection and service charges where the feature sets no
 * commission amount of its own) its primary holder earns. `None` earns nothing.
 */
export interface CommissionProfile {
  /** Percent in money units (5% → 50000n); null: nothing. */
  readonly percent: Money | null
}

export interface CommissionPresets {
  readonly commissionProfiles: Readonly<Record<string, CommissionProfile>>
}

/** The shipped profiles, one per shipped name of the list. */
export const defaultCommissionPresets: CommissionPresets = {
  commissionProfiles: {
    None: { percent: null },
    'Standard Dealer': { percent: parseMoney('5')! },
    'Premium Dealer': { percent: parseMoney('10')! },
    'Internal Sales': { percent: parseMoney('2.5')! },
  },
}

const mapName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))
const percent = v.pipe(v.string(), v.regex(/^\d{1,3}(\.\d{1,4})?$/, 'a decimal such as "5"'), v.check((s) => Number(s) <= 100, 'at most 100'))
const ProfileEntry = v.strictObject({ percent: v.optional(percent) })

/** The commission part of the presets file's schema: replaces the shipped profiles; their names are the `commissionProfiles` list. */
export const commissionProfilesFile = {
  commissionProfiles: v.optional(v.record(mapName, ProfileEntry)),
}

/** The file's profiles, else the base's. */
export function mergeCommissionProfiles(file: { commissionProfiles?: Record<string, { percent?: string }> }, base: CommissionPresets): CommissionPresets {
  if (!file.commissionProfiles) return { commissionProfiles: base.commissionProfiles }
  return {
    commissionProfiles: Object.fromEntries(Object.entries(file.commissionProfiles).map(([name, p]) => [name, { percent: p.percent === undefined ? null : parseMoney(p.percent)! }])),
  }
}

/** The percentage a profile name gives; null for none, `None`, or a name no longer configured. */
export const profilePercent = (presets: CommissionPresets, name: string | null): Money | null => (name ? (presets.commissionProfiles[name]?.percent ?? null) : null)
