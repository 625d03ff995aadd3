import { originations, type Origination } from '../fields/originations.js'
import type { UsageRecord } from './usage-record.js'
import { recordWith } from './record-with.js'

type Suffix = '' | '2' | '3' | '4'
export type CdrField = `CDRNumber${Suffix}`

/**
 * What a number says of each of its CDR numbers (billing-api.md, numbers): the call leg it is
 * (`callDirections`), the origination its calls have (`originationTypes`), their charge band.
 */
export type CdrNumberTerms = { readonly [S in Suffix as `CDRNumberCallTypeDirectionFlag${S}`]?: string | null } & {
  readonly [S in Suffix as `useCallTypeOriginationTypeFlag${S}`]?: string | null
} & { readonly [S in Suffix as `CDRNumberChargeBand${S}`]?: string | null }

const SUFFIXES: readonly Suffix[] = ['', '2', '3', '4']

/** The terms' columns, as the number lookup reads them beside `CDRNumber..4`. */
export const CDR_TERM_COLUMNS = SUFFIXES.flatMap((s) => [`CDRNumberCallTypeDirectionFlag${s}`, `useCallTypeOriginationTypeFlag${s}`, `CDRNumberChargeBand${s}`])

/** A CDR number's terms read once, when the index is built: what a record matched through it changes. */
export interface CdrTerms {
  /** The only records it may match; null: either direction. */
  readonly direction: 'inbound' | 'outbound' | null
  /** Its calls' charge band in place of the record's; null: the record's. */
  readonly chargeBand: string | null
  /** Its calls' origination in place of the record's; null: the record's. */
  readonly origination: Origination | null
}

const suffixOf = (field: CdrField): Suffix => field.slice(9) as Suffix

/**
 * The direction a flag names: `Outbound` the calling leg, `Inbound` the dialled one; `Both`,
 * unset or a name of neither (the preset list is configurable) matches either, as before the
 * flag was read.
 */
export function directionOfFlag(flag: string | null | undefined): 'inbound' | 'outbound' | null {
  const name = flag?.trim().toLowerCase()
  return name === 'outbound' ? 'outbound' : name === 'inbound' ? 'inbound' : null
}

/** The origination a flag names (`VoIP` is `voip`); null for unset or a name rating does not know. */
export function originationOfFlag(flag: string | null | undefined): Origination | null {
  const name = flag?.trim().toLowerCase()
  return name && (originations as readonly string[]).includes(name) ? (name as Origination) : null
}

export function cdrTermsOf(number: CdrNumberTerms, field: CdrField): CdrTerms {
  const s = suffixOf(field)
  return {
    direction: directionOfFlag(number[`CDRNumberCallTypeDirectionFlag${s}`]),
    chargeBand: number[`CDRNumberChargeBand${s}`]?.trim() || null,
    origination: originationOfFlag(number[`useCallTypeOriginationTypeFlag${s}`]),
  }
}

/** Whether a CDR number of `number` matches one direction only: then the index keeps a map per direction. */
export const hasOneWayCdrNumber = (number: CdrNumberTerms & { readonly [F in CdrField]?: string | null }): boolean =>
  SUFFIXES.some((s) => !!number[`CDRNumber${s}`] && directionOfFlag(number[`CDRNumberCallTypeDirectionFlag${s}`]) !== null)

/** The record as rated through a CDR number with a charge band or origination of its own (only such matches make a record). */
export function withCdrTerms(record: UsageRecord, terms: Pick<CdrTerms, 'chargeBand' | 'origination'>): UsageRecord {
  return recordWith(record, {
    chargeBand: terms.chargeBand ?? record.chargeBand,
    callClass: record.callClass,
    origination: terms.origination ?? record.origination,
    lookUpDestination: record.lookUpDestination ?? null,
  })
}
