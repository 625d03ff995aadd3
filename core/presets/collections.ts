import * as v from 'valibot'
import { invoiceNumberFormatProblem } from './invoice-number-format.js'

/**
 * The presets of collections (contract 15.2, 15.3): how credit notes are numbered, the dunning
 * profiles a customer's `dunningProfile` names, and what each does when a credit limit is passed.
 */

/** The shipped `creditNoteNumberFormat`: CN-000001, CN-000002, ... */
export const DEFAULT_CREDIT_NOTE_NUMBER_FORMAT = 'CN-{seq:6}'

export const dunningActions = ['reminder', 'finalNotice', 'suspend', 'bar'] as const
/** What a dunning step does (contract 15.2). */
export type DunningAction = (typeof dunningActions)[number]

export const creditLimitActions = ['alert', 'bar', 'suspend'] as const
/** What a profile does when a customer passes a credit limit (contract 15.2). */
export type CreditLimitAction = (typeof creditLimitActions)[number]

/** One step of a profile: its action, taken once an invoice is `afterDays` past its overdue date. */
export interface DunningStep {
  readonly afterDays: number
  readonly action: DunningAction
}

export interface DunningProfile {
  /** In the order they are taken: by `afterDays`, then as the file lists them. */
  readonly steps: readonly DunningStep[]
  readonly onCreditLimit: CreditLimitAction
}

export interface CollectionPresets {
  readonly creditNoteNumberFormat: string
  readonly dunningProfiles: Readonly<Record<string, DunningProfile>>
  /** The profile of a customer with no `dunningProfile`. */
  readonly defaultDunningProfile: string
}

/**
 * The shipped profiles. `Standard` reminds and gives final notice but never suspends: a platform
 * suspends nobody until an operator configures a profile that says so. `None` does nothing.
 */
export const defaultCollectionPresets: CollectionPresets = {
  creditNoteNumberFormat: DEFAULT_CREDIT_NOTE_NUMBER_FORMAT,
  dunningProfiles: {
    Standard: { steps: [{ afterDays: 7, action: 'reminder' }, { afterDays: 14, action: 'finalNotice' }], onCreditLimit: 'alert' },
    None: { steps: [], onCreditLimit: 'alert' },
  },
  defaultDunningProfile: 'Standard',
}

const mapName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))
const ProfileEntry = v.strictObject({
  steps: v.pipe(v.array(v.strictObject({ afterDays: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3650)), action: v.picklist(dunningActions) })), v.maxLength(20)),
  onCreditLimit: v.optional(v.picklist(creditLimitActions)),
})

/** The collections part of the presets file's schema. */
export const collectionsFile = {
  creditNoteNumberFormat: v.optional(
    v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.check((f) => invoiceNumberFormatProblem(f) === null, 'must hold {seq} or {seq:N} once, and only the placeholders {yyyy}, {mm}, {seq:N}')),
  ),
  /** Replaces the shipped profiles; their names are the `dunningProfiles` list. */
  dunningProfiles: v.optional(v.record(mapName, ProfileEntry)),
  defaultDunningProfile: v.optional(mapName),
}

type CollectionsFile = { creditNoteNumberFormat?: string; dunningProfiles?: Record<string, v.InferOutput<typeof ProfileEntry>>; defaultDunningProfile?: string }

/** The file's collections settings over the base ones; throws when the default names no profile. */
export function mergeCollections(file: CollectionsFile, base: CollectionPresets): CollectionPresets {
  const dunningProfiles: Record<string, DunningProfile> = file.dunningProfiles
    ? Object.fromEntries(
        Object.entries(file.dunningProfiles).map(([name, p]) => [
          name,
          // A stable sort: steps on the same day are taken in the order the file lists them.
          { steps: [...p.steps].sort((a, b) => a.afterDays - b.afterDays), onCreditLimit: p.onCreditLimit ?? 'alert' },
        ]),
      )
    : base.dunningProfiles
  const defaultDunningProfile = file.defaultDunningProfile ?? (file.dunningProfiles && !(base.defaultDunningProfile in dunningProfiles) ? Object.keys(dunningProfiles)[0] : base.defaultDunningProfile)
  if (defaultDunningProfile === undefined || !(defaultDunningProfile in dunningProfiles)) {
    throw new Error(`presets file: defaultDunningProfile ${JSON.stringify(defaultDunningProfile ?? null)} names no entry of dunningProfiles`)
  }
  return { creditNoteNumberFormat: file.creditNoteNumberFormat ?? base.creditNoteNumberFormat, dunningProfiles, defaultDunningProfile }
}

/** The profile a customer follows: its own, else the presets' default (also for a name no longer configured). */
export function profileOf(presets: Pick<CollectionPresets, 'dunningProfiles' | 'defaultDunningProfile'>, customer: { readonly dunningProfile: string | null }): DunningProfile {
  return (customer.dunningProfile && presets.dunningProfiles[customer.dunningProfile]) || presets.dunningProfiles[presets.defaultDunningProfile]
}
