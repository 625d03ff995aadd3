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
const UsageFormatEntry = v.strictObject({
  columns: v.record(v.string(), v.union([header, v.tuple([header, header])])),
  dateFormat: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(50)), 'yyyy-MM-dd'),
  timeFormat: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(50)), 'HH:mm:ss'),
  duration: v.optional(v.picklist(durationForms), 'seconds'),
  delimiter: v.optional(v.picklist(formatDelimiters), ','),
  carrier: v.optional(header),
})

/** The carrier settings' part of the presets file's schema. */
export const carrierMapsFile = {
  countryCallingCode: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,2}$/, 'a country calling code such as "44"'))),
  usageFormats: v.optional(v.record(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)), UsageFormatEntry)),
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
