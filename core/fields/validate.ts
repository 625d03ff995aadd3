import * as v from 'valibot'
import { parseDate } from '../dates/date-only.js'
import { parseDatetime } from '../dates/stamp.js'
import { BillingError } from '../errors.js'
import { parseMoney, type Money } from '../money/money.js'
import type { Presets } from '../presets/presets.js'
import { MAX_KEY_LENGTH, type Field, type FieldRef } from './field.js'
import type { FieldValue, Item, Values } from './item.js'
import type { Resource } from './resource.js'
import { isStorableText } from './storable-text.js'

export const MAX_TEXT_LENGTH = 10_000

/** Longest text a field accepts: its own limit, the key limit when unique, else MAX_TEXT_LENGTH. */
export const maxTextLength = (field: Field): number => field.maxLength ?? (field.unique ? MAX_KEY_LENGTH : MAX_TEXT_LENGTH)
/** Amounts beyond this (1e11 in currency units, within exact doubles when stored) are refused rather than risking precision. */
const MAX_MONEY = 10n ** 15n

type Schema = v.GenericSchema<unknown, FieldValue>

/** A name a field gives that must exist among another resource's rows (tariff names). */
export interface RefCheck {
  readonly field: string
  readonly ref: FieldRef
  readonly value: string
}

export interface ValidatedInput {
  readonly values: Values
  readonly refChecks: readonly RefCheck[]
}

/**
 * Builds the valibot schema of every field once, from the catalogue and the configured
 * presets; `validateInput` then checks request bodies against them.
 */
export class InputValidator {
  private readonly schemas = new Map<Field, Schema>()

  constructor(readonly presets: Presets) {}

  schemaFor(field: Field): Schema {
    let s = this.schemas.get(field)
    if (!s) {
      s = v.nullable(this.baseSchema(field)) as Schema
      this.schemas.set(field, s)
    }
    return s
  }

  /** Allowed values of a preset field, for errors and presets discovery. */
  allowed(field: Field): readonly string[] {
    return field.list ? this.presets.lists[field.list] ?? [] : []
  }

  parseField(resource: Resource, field: Field, value: unknown): FieldValue {
    const result = v.safeParse(this.schemaFor(field), value)
    if (result.success) return result.output
    throw invalidField(resource, field, value, this.hintFor(field))
  }

  /**
   * Checks a create or update body: unknown and internal names, types, presets, read-only
   * fields (a different value refused, the same ignored). Tariff names are returned for the
   * caller to check against the database.
   */
  validateInput(resource: Resource, body: unknown, current?: Item): ValidatedInput {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new BillingError('invalid_body', 'The body must be a JSON object', 'Send a JSON object of the resource fields.')
    }
    const values: Values = {}
    const refChecks: RefCheck[] = []
    const readOnlyDiffs: string[] = []
    for (const [name, raw] of Object.entries(body)) {
      const field = resource.byName.get(name)
      if (!field || field.internal) {
        throw new BillingError('invalid_field', `Unknown field "${name}" for ${resource.singular}`, unknownHint(resource, name))
      }
      const value = this.parseField(resource, field, raw)
      const writable = field.createOnly ? !current : !field.readOnly
      if (!writable) {
        if (!sameValue(value, current ? current[name] : null)) readOnlyDiffs.push(name)
        continue
      }
      values[name] = value
      if (field.ref && typeof value === 'string') refChecks.push({ field: name, ref: field.ref, value })
    }
    if (!current) {
      const missing = resource.fields.find((f) => f.required && (values[f.name] === undefined || values[f.name] === null))
      if (missing) {
        throw new BillingError('invalid_field', `Field "${missing.name}" of ${resource.singular} is required`, `Give "${missing.name}".`)
      }
    } else {
      const cleared = resource.fields.find((f) => f.required && values[f.name] === null)
      if (cleared) throw new BillingError('invalid_field', `Field "${cleared.name}" of ${resource.singular} cannot be cleared`, `Give a value for "${cleared.name}".`)
    }
    if (readOnlyDiffs.length) {
      throw new BillingError(
        'read_only_field',
        `Read-only field "${readOnlyDiffs[0]}" cannot be changed`,
        'Omit read-only fields, or send them unchanged; actions maintain status and state.',
      )
    }
    return { values, refChecks }
  }

  private hintFor(field: Field): string {
    switch (field.type) {
      case 'preset':
      case 'presets': {
        if (field.ref) return `Use the name of an existing ${field.ref === 'tariffs' ? 'call tariff' : 'fixed fee tariff'}.`
        const allowed = this.allowed(field)
        const shown = allowed.slice(0, 12).map((a) => JSON.stringify(a)).join(', ')
        const more = allowed.length > 12 ? `, … (${allowed.length} in all; GET /presets/)` : ''
        return field.type === 'presets'
          ? `An array of configured names: ${shown}${more}`
          : `Allowed values: ${shown}${more}`
      }
      case 'currency':
        return 'A number or decimal string with at most 4 decimal places.'
      case 'date':
        return 'A real calendar date as YYYY-MM-DD.'
      case 'datetime':
        return 'A datetime as YYYY-MM-DDTHH:mm:ss with optional fraction and Z or ±HH:MM.'
      case 'number':
        return 'A finite JSON number.'
      case 'boolean':
        return 'true or false.'
      case 'id':
        return 'A positive integer ID as a string.'
      default:
        return `A string of at most ${maxTextLength(field)} characters, without NUL (U+0000) or unpaired surrogates.`
    }
  }

  private baseSchema(field: Field): v.GenericSchema<unknown, FieldValue> {
    switch (field.type) {
      case 'text':
        return v.pipe(v.string(), v.maxLength(maxTextLength(field)), v.check(isStorableText))
      case 'number':
        return v.pipe(v.number(), v.finite(), v.check((n) => Math.abs(n) < 1e15))
      case 'boolean':
        return v.boolean()
      case 'id':
        return v.pipe(
          v.union([v.string(), v.number()]),
          v.transform((x) => String(x)),
          v.regex(/^[1-9]\d{0,15}$/),
        )
      case 'currency':
        return v.pipe(
          v.union([v.number(), v.string()]),
          v.rawTransform(({ dataset, addIssue, NEVER }) => {
            const m = parseMoney(dataset.value)
            if (m === null || m >= MAX_MONEY || m <= -MAX_MONEY) {
              addIssue({ message: 'not an amount with at most 4 decimals' })
              return NEVER
            }
            return m as Money
          }),
        )
      case 'date':
        return v.pipe(v.string(), v.check((s) => parseDate(s) !== null))
      case 'datetime':
        return v.pipe(
          v.string(),
          v.rawTransform(({ dataset, addIssue, NEVER }) => {
            const s = parseDatetime(dataset.value)
            if (s === null) {
              addIssue({ message: 'not a datetime' })
              return NEVER
            }
            return s
          }),
        )
      case 'preset':
        if (field.ref) return v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_KEY_LENGTH), v.check(isStorableText))
        return v.picklist(this.allowed(field) as string[])
      case 'presets':
        return v.pipe(
          v.array(v.picklist(this.allowed(field) as string[])),
          v.transform((xs) => [...new Set(xs)]),
        )
    }
  }
}

function invalidField(resource: Resource, field: Field, value: unknown, hint: string): BillingError {
  return new BillingError('invalid_field', `Invalid value ${preview(value)} for field "${field.name}" of ${resource.singular}`, hint)
}

/** A value as an error message quotes it: at most 60 characters, whatever its size or depth. */
function preview(value: unknown): string {
  let text: string
  try {
    text = typeof value === 'string' && value.length > 60 ? value : JSON.stringify(value) ?? 'undefined'
  } catch {
    text = Array.isArray(value) ? '[…]' : '{…}' // too deep to serialise (the HTTP edge limits nesting; other callers may not)
  }
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}

function unknownHint(resource: Resource, name: string): string {
  const lower = name.toLowerCase()
  const near = resource.fields.find((f) => !f.internal && f.name.toLowerCase() === lower)
  return near
    ? `Property names are case-sensitive: did you mean "${near.name}"?`
    : `Remove "${name}"; see GET /backend/api/v1/openapi.json for the fields of ${resource.name}.`
}

/** Equality of domain values, for read-only comparisons (arrays by content, bigints by value). */
export function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  const x = a ?? null
  const y = b ?? null
  if (Array.isArray(x) || Array.isArray(y)) {
    const xa = (x ?? []) as readonly string[]
    const ya = (y ?? []) as readonly string[]
    return xa.length === ya.length && xa.every((e, i) => e === ya[i])
  }
  return x === y
}
