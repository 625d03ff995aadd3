import { BillingError, quoted } from '../../core/errors.js'
import type { Item } from '../../core/fields/item.js'
import type { PlatformContext } from '../../core/platform.js'
import type { UsageFormat } from '../../core/presets/carrier-maps.js'
import { importUsageFile } from '../../core/rating/import-usage.js'
import { carrierColumnsNamed, carrierFormatLines } from './carrier-format.js'
import { usageLines } from './usage-lines.js'

/**
 * Imports a usage file's text (contract 9.6), in our layout or, with `formatName`, in the layout
 * of that presets `usageFormats` entry (contract 17.3): `POST /usageFiles?format=` and the
 * library's `usage.importFile(lines, { format })` alike.
 */
export function importUsageText(platform: PlatformContext, text: AsyncIterable<string> | Iterable<string>, name: string | null, formatName: string | null): Promise<Item> {
  const format = formatName === null ? null : usageFormatOf(platform.presets.usageFormats, formatName)
  const lines = format ? carrierFormatLines(usageLines(text, format.delimiter), formatName!, format, platform.clock.now()) : usageLines(text)
  return importUsageFile(platform, lines, name, { throughFormat: format !== null }).catch((error: unknown) => {
    throw format ? carrierColumnsNamed(error, format) : error
  })
}

/** The presets' format of that name; an unknown name is `400101` naming the parameter and the names there are. */
function usageFormatOf(formats: Readonly<Record<string, UsageFormat>>, name: string): UsageFormat {
  const format = Object.hasOwn(formats, name) ? formats[name] : undefined
  if (format) return format
  const names = Object.keys(formats)
  throw new BillingError('invalid_field', `format ${quoted(name)} is not a usageFormats name`, names.length ? `Formats: ${names.join(', ')}.` : 'The presets file defines no usageFormats.')
}
