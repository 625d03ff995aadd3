import { parseDate, type DateOnly } from '../dates/date-only.js'
import { BillingError } from '../errors.js'
import { isStorableText } from '../fields/storable-text.js'
import { parseMoney, type Money } from '../money/money.js'

/** One parameter of an action body. */
export interface ParamRule<T> {
  readonly name: string
  readonly required?: boolean
  /** The value, or null when it is not acceptable. */
  readonly parse: (value: unknown) => T | null
  readonly hint: string
}

/**
 * Reads an action body in contract 2's order: every missing required parameter first
 * (`missing_parameter`, naming it), then unknown parameters and bad values (`invalid_parameter`).
 * A required parameter given as null counts as missing; an optional null as absent.
 */
export function readParams<R extends Record<string, ParamRule<unknown>>>(
  action: string,
  body: Record<string, unknown>,
  rules: R,
): { [K in keyof R]: (R[K] extends ParamRule<infer T> ? T : never) | null } {
  const list = Object.values(rules)
  for (const rule of list) {
    if (rule.required && (body[rule.name] === undefined || body[rule.name] === null)) {
      throw new BillingError('missing_parameter', `Action ${action} needs the parameter ${rule.name}`, `Give ${rule.name}: ${rule.hint}`)
    }
  }
  for (const name of Object.keys(body)) {
    if (!list.some((r) => r.name === name)) {
      const accepted = list.map((r) => r.name).join(', ') || 'none'
      throw new BillingError('invalid_parameter', `Action ${action} has no parameter ${name}`, `Accepted parameters: ${accepted}.`)
    }
  }
  const out: Record<string, unknown> = {}
  for (const [key, rule] of Object.entries(rules)) {
    const raw = body[rule.name]
    if (raw === undefined || raw === null) {
      out[key] = null
      continue
    }
    const value = rule.parse(raw)
    if (value === null) {
      throw new BillingError('invalid_parameter', `Invalid value for ${rule.name} of action ${action}`, rule.hint)
    }
    out[key] = value
  }
  return out as never
}

/** An item ID given as a string or a number. */
export const idParam = (name: string, required = true): ParamRule<string> => ({
  name,
  required,
  hint: 'an ID such as "12".',
  parse: (v) => {
    const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v
    return typeof s === 'string' && /^[1-9]\d{0,15}$/.test(s) ? s : null
  },
})

/** An action that takes no parameters. */
export function readNoParams(action: string, body: Record<string, unknown>): void {
  readParams(action, body, {})
}

/** A date YYYY-MM-DD. */
export const dateParam = (name: string, required = false): ParamRule<DateOnly> => ({
  name,
  required,
  hint: 'a real calendar date as YYYY-MM-DD.',
  parse: (v) => parseDate(v),
})

/** An amount: a number or decimal string with at most 4 decimals. */
export const moneyParam = (name: string, required = false): ParamRule<Money> => ({
  name,
  required,
  hint: 'an amount such as "12.50" with at most 4 decimal places.',
  parse: (v) => parseMoney(v),
})

/** A whole number of 0 or more. */
export const countParam = (name: string, required = false): ParamRule<number> => ({
  name,
  required,
  hint: 'a whole number of 0 or more.',
  parse: (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null),
})

/** Any string (checked further by the action). */
export const textParam = (name: string, required = false): ParamRule<string> => ({
  name,
  required,
  hint: 'a string without NUL (U+0000) or unpaired surrogates.',
  parse: (v) => (typeof v === 'string' && isStorableText(v) ? v : null),
})
