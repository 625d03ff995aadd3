import { format, isValid, parse } from 'date-fns'
import * as v from 'valibot'

/** How a carrier writes a duration (contract 17.3). */
export const durationForms = ['seconds', 'mm:ss', 'hh:mm:ss'] as const
export type DurationForm = (typeof durationForms)[number]
export const formatDelimiters = [',', ';', '\t', '|'] as const

/**
 * A carrier's usage file layout (`usageFormats`, contract 17.3): for each of our columns
 * (`usage-record.ts`) the carrier's header, or for `startTime` its date and time headers; date
 * and time patterns in date-fns notation (`dd/MM/yyyy`, `HH:mm:ss`), read as UTC.
 */
export interface UsageFormat {
  readonly columns: Readonly<Record<string, string | readonly [string, string]>>
  readonly dateFormat: string
  readonly timeFormat: string
  readonly duration: DurationForm
  readonly delimiter: (typeof formatDelimiters)[number]
  /** The carrier every record is from, when the file has no carrier column. */
  readonly carrier?: string
}

/** The carrier settings of the presets (contract 17.2, 17.3). */
export interface CarrierMaps {
  /** The country a dialled number's leading `0` is national to, as its calling code (`44`). */
  readonly countryCallingCode: string
  readonly usageFormats: Readonly<Record<string, UsageFormat>>
}

const header = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))
/** A date or time pattern date-fns reads (`DD/MM/YYYY` is not one: checked when the presets load, not at the first import). */
const datePattern = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(50),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const problem = datePatternProblem(dataset.value)
    if (problem !== null) addIssue({ message: `${JSON.stringify(dataset.value)} is not a date-fns pattern: ${problem}` })
  }),
)
const UsageFormatEntry = v.strictObject({
  columns: v.record(v.string(), v.union([header, v.tuple([header, header])])),
  dateFormat: v.optional(datePattern, 'yyyy-MM-dd'),
  timeFormat: v.optional(datePattern, 'HH:mm:ss'),
  duration: v.optional(v.picklist(durationForms), 'seconds'),
  delimiter: v.optional(v.picklist(formatDelimiters), ','),
  carrier: v.optional(header),
})

/** The carrier settings' part of the presets file's schema. */
export const carrierMapsFile = {
  countryCallingCode: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,2}$/, 'a country calling code such as "44"'))),
  usageFormats: v.optional(v.record(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)), UsageFormatEntry)),
}

/** A fixed date, in no particular time zone: only whether date-fns takes the pattern matters. */
const SAMPLE = new Date(981173106000)

/**
 * Why date-fns refuses a pattern, or null: a pattern must both write a date (which refuses
 * `DD`, `YYYY` and unknown letters) and read what it wrote (which refuses tokens only `format`
 * knows, such as `z`).
 */
export function datePatternProblem(pattern: string): string | null {
  try {
    return isValid(parse(format(SAMPLE, pattern), pattern, SAMPLE)) ? null : 'it does not read back the dates it writes'
  } catch (error) {
    // date-fns names the token and the fix, then the sample date and a link: the first part is the useful one.
    return String((error as Error).message).replace(/ to the input .*$|; see: .*$/s, '')
  }
}

/** Shipped: UK numbering, and no carrier formats (each reseller's carriers differ). */
export const defaultCarrierMaps: CarrierMaps = { countryCallingCode: '44', usageFormats: {} }

/** The file's carrier settings over a base: a `usageFormats` given replaces the base's whole. */
export function mergeCarrierMaps(file: { countryCallingCode?: string; usageFormats?: Record<string, UsageFormat> }, base: CarrierMaps | null): CarrierMaps {
  return {
    countryCallingCode: file.countryCallingCode ?? base?.countryCallingCode ?? defaultCarrierMaps.countryCallingCode,
    usageFormats: file.usageFormats ?? base?.usageFormats ?? defaultCarrierMaps.usageFormats,
  }
}
