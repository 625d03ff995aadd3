import * as v from 'valibot'
import { parseMoney, type Money } from '../money/money.js'

/**
 * The presets map `autoTopupThresholds`: each name of the `autoTopupProfiles` list (a customer's
 * `autoTopupProfile`) → the amount, as money text ("10.00"), that the customer's funds falling
 * below makes a top-up due (core/credit/auto-topups.ts). `None` tops up never and has no entry;
 * nor does any name the list gives without one.
 */
export interface AutoTopupPresets {
  readonly autoTopupThresholds: Readonly<Record<string, Money>>
}

/** The name of the profile that never tops up. */
export const NO_TOPUP = 'None'

/** The shipped thresholds, one per shipped name of the list other than `None`. */
export const defaultAutoTopupThresholds: Readonly<Record<string, string>> = {
  'Top up when below £10': '10.00',
  'Top up when below £50': '50.00',
}

const mapName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.check((n) => n !== NO_TOPUP, `"${NO_TOPUP}" never tops up: it has no threshold`))
const amount = v.pipe(v.string(), v.regex(/^\d{1,12}(\.\d{1,4})?$/, 'an amount such as "10.00"'))

/** The map's part of the presets file's schema. */
export const autoTopupThresholdsFile = {
  autoTopupThresholds: v.optional(v.record(mapName, amount)),
}

const money = (map: Readonly<Record<string, string>>): Record<string, Money> => Object.fromEntries(Object.entries(map).map(([name, text]) => [name, parseMoney(text)!]))

/**
 * The file's thresholds, else the base's; the `autoTopupProfiles` list in `lists` is brought up to
 * date. `listGiven`: the file replaces or extends the list. A file's list is the list (contract 4:
 * a presets file replaces any list): inherited thresholds of names it no longer lists are dropped,
 * and a name it lists without a threshold never tops up, as `None` (a file that loaded before
 * thresholds existed still loads). A map given is the thresholds, and its names join the list;
 * a map given without its list is the list (with `None`).
 */
export function mergeAutoTopupThresholds(
  file: { readonly autoTopupThresholds?: Record<string, string> },
  base: AutoTopupPresets | null,
  lists: Record<string, readonly string[]>,
  listGiven = false,
): AutoTopupPresets {
  const listed = lists.autoTopupProfiles ?? []
  if (file.autoTopupThresholds) {
    const thresholds = money(file.autoTopupThresholds)
    const names = listGiven ? listed : listed.filter((n) => n === NO_TOPUP)
    lists.autoTopupProfiles = [...new Set([...names, ...Object.keys(thresholds)])]
    return { autoTopupThresholds: thresholds }
  }
  const inherited = base?.autoTopupThresholds ?? money(defaultAutoTopupThresholds)
  return { autoTopupThresholds: Object.fromEntries(Object.entries(inherited).filter(([name]) => listed.includes(name))) }
}
