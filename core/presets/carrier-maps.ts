import { format } from 'date-fns/format'
import { isValid } from 'date-fns/isValid'
import { parse } from 'date-fns/parse'
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
/** A date or time pattern date-fns reads (`DD/MM/YYYY` is not one: refused when the presets load, not at the first import). */
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
 * What date-fns is told when it writes or reads a carrier's pattern. `datePatternProblem` has
 * refused `D`, `DD` and every `Y` run already, so the day-of-year option admits only `DDD` and
 * `DDDD` (a day of the year, as a carrier writing ordinal dates means it) without the console
 * warning date-fns otherwise prints for each of them.
 */
export const patternOptions = { useAdditionalDayOfYearTokens: true } as const

/** date-fns's own split of a pattern into tokens: quoted literals, letter runs, other characters. */
const TOKENS = /[yYQqMLwIdDecihHKkms]o|(\w)\1*|''|'(''|[^'])+('|$)|./g

/**
 * The tokens date-fns warns about on the console (and throws for `D`, `DD`, `YY`, `YYYY`), named
 * here instead with the fix. A carrier format's author writing `DD/MM/YYYY` means the day of the
 * month and the calendar year, as spreadsheets and Moment.js write them; in date-fns (Unicode
 * tokens) they are the day of the year and the week-numbering year, which no carrier file means.
 * Refused rather than read as `dd`/`yyyy`: the presets say date-fns patterns, and a pattern
 * that means one thing to date-fns and another here would mislead whoever reads it next.
 */
function confusedToken(pattern: string): string | null {
  for (const [token] of pattern.matchAll(TOKENS)) {
    if (/^D{1,2}$/.test(token)) return `Use \`${token.toLowerCase()}\` for the day of the month: \`${token}\` is the day of the year`
    if (/^Y+$/.test(token)) return `Use \`${token.toLowerCase()}\` for the year: \`${token}\` is the week-numbering year`
  }
  return null
}

/**
 * Why date-fns refuses a pattern, or null, without a word on the console: a pattern must not
 * hold a token date-fns warns about (`confusedToken`), must write a date (which refuses unknown
 * letters) and must read what it wrote (which refuses tokens only `format` knows, such as `z`).
 */
export function datePatternProblem(pattern: string): string | null {
  const confused = confusedToken(pattern)
  if (confused !== null) return confused
  try {
    return isValid(parse(format(SAMPLE, pattern, patternOptions), pattern, SAMPLE, patternOptions)) ? null : 'it does not read back the dates it writes'
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
