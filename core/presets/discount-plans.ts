import * as v from 'valibot'

/**
 * The presets map `discountPlans` (contract 11): what a number's or feature's `discountPlan1..4`
 * gives its calls, an allowance of minutes per billing month for some call classes (and, when
 * given, only some charge bands). Each name of the `discountPlans` list needs an entry, so a
 * holder can never name a plan the rater does not know.
 */

/** A discount plan: minutes a month, free to calls of its classes (and bands, when it lists any). */
export interface DiscountPlan {
  /** Call classes (a call's `callType`) the allowance covers; empty: none (`None`). */
  readonly callClasses: readonly string[]
  /** Charge bands it covers; null: every band of its classes. */
  readonly chargeBands: readonly string[] | null
  /** Minutes per period for one holder, before its multiplier and `featureCount`. */
  readonly allowanceMinutes: number
  readonly period: DiscountPlanPeriod
}

export const discountPlanPeriods = ['Monthly'] as const
export type DiscountPlanPeriod = (typeof discountPlanPeriods)[number]

export interface DiscountPlanMaps {
  readonly discountPlans: Readonly<Record<string, DiscountPlan>>
}

/**
 * The classes of core/fields/call-classes.ts (a test keeps them equal): presets may not import the
 * field catalogue, which imports presets.
 */
export const planCallClasses = [
  'inbound',
  'national',
  'mobile',
  'nongeographic',
  'serviceNumbers',
  'international',
  'extendedInternational',
  'surcharges',
  'bespoke1',
  'bespoke2',
] as const

const planName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))
const band = v.pipe(v.string(), v.trim(), v.minLength(1, 'a charge band is not empty'), v.maxLength(200))

const PlanEntry = v.strictObject({
  callClasses: v.array(v.picklist(planCallClasses, `a call class: one of ${planCallClasses.join(', ')}`)),
  chargeBands: v.optional(v.pipe(v.array(band), v.minLength(1, 'leave chargeBands out to cover every band'))),
  allowanceMinutes: v.pipe(v.number('a number of minutes'), v.minValue(0, 'at least 0'), v.maxValue(10_000_000, 'at most 10,000,000'), v.check((n) => Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, 'at most 3 decimals')),
  period: v.picklist(discountPlanPeriods, `one of ${discountPlanPeriods.join(', ')}`),
})

type PlanInput = v.InferOutput<typeof PlanEntry>

/** The map's part of the presets file's schema. */
export const discountPlansFile = {
  /** Replaces the default plans; its names join the `discountPlans` list. */
  discountPlans: v.optional(v.record(planName, PlanEntry)),
}

/** The shipped entries of the shipped names (default-presets.ts). */
export const defaultDiscountPlans: Readonly<Record<string, PlanInput>> = {
  None: { callClasses: [], allowanceMinutes: 0, period: 'Monthly' },
  '1000 UK Minutes': { callClasses: ['national', 'mobile'], allowanceMinutes: 1000, period: 'Monthly' },
  // Every minute of a 31-day month: a line cannot use more.
  'Unlimited UK': { callClasses: ['national', 'mobile', 'nongeographic'], allowanceMinutes: 44_640, period: 'Monthly' },
  'Mobile Bundle 500': { callClasses: ['mobile'], allowanceMinutes: 500, period: 'Monthly' },
  'International Saver': { callClasses: ['international'], allowanceMinutes: 100, period: 'Monthly' },
}

/**
 * The plans of a presets file over a base (a map the file gives replaces the base's whole), with
 * every name of the `discountPlans` list checked to have an entry. The map's names join the list;
 * a map given without its list (`listsGiven`) is its list. Throws naming the entry at fault.
 */
export function mergeDiscountPlans(
  file: { readonly discountPlans?: Record<string, PlanInput> },
  base: DiscountPlanMaps | null,
  lists: Record<string, readonly string[]>,
  listsGiven: ReadonlySet<string> = new Set(),
): DiscountPlanMaps {
  const plans = file.discountPlans ? toPlans(file.discountPlans) : (base?.discountPlans ?? toPlans(defaultDiscountPlans))
  const names = file.discountPlans && !listsGiven.has('discountPlans') ? [] : (lists.discountPlans ?? [])
  lists.discountPlans = [...new Set([...names, ...Object.keys(plans)])]
  const missing = lists.discountPlans.find((name) => !(name in plans))
  if (missing !== undefined) throw new Error(`presets file: discountPlans names ${JSON.stringify(missing)} but the discountPlans map has no entry for it`)
  return { discountPlans: plans }
}

function toPlans(map: Readonly<Record<string, PlanInput>>): Record<string, DiscountPlan> {
  return Object.fromEntries(
    Object.entries(map).map(([name, p]) => {
      const plan: DiscountPlan = { callClasses: [...new Set(p.callClasses)], chargeBands: p.chargeBands ? [...new Set(p.chargeBands)] : null, allowanceMinutes: p.allowanceMinutes, period: p.period }
      return [name, plan]
    }),
  )
}
