import * as v from 'valibot'
import { parseDate } from '../dates/date-only.js'
import { parseDatetime } from '../dates/stamp.js'
import { BillingError, quoted } from '../errors.js'
import { parseMoney, withinMoneyBound, type Money } from '../money/money.js'
import type { Presets } from '../presets/presets.js'
import { MAX_KEY_LENGTH, type Field, type FieldRef } from '../fields/field.js'
import type { FieldValue, Item, Values } from '../fields/item.js'
import type { Entity, ValuesOf } from '../fields/entity.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import { isStorableText } from '../fields/storable-text.js'
import { objectBody } from './object-body.js'

export const MAX_TEXT_LENGTH = 10_000
/** A Number field's values lie strictly between −MAX_NUMBER and MAX_NUMBER. */
export const MAX_NUMBER = 1e15

/** Longest text a field accepts: its own limit, the key limit when unique, else MAX_TEXT_LENGTH. */
export const maxTextLength = (field: Field): number => field.maxLength ?? (field.unique || field.uniqueWith ? MAX_KEY_LENGTH : MAX_TEXT_LENGTH)
/** A UUID of RFC 9562 (versions 1 to 8, the RFC's variant). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
/** How many allowed values a hint shows. */
const SHOWN = 12

type Schema = v.GenericSchema<unknown, FieldValue>

/** A name a field gives that must exist among another resource's rows (tariff names). */
export interface RefCheck {
  readonly field: string
  readonly ref: FieldRef
  readonly value: string
}

export interface ValidatedInput<V = Values> {
  readonly values: V
  readonly refChecks: readonly RefCheck[]
}

/**
 * Builds the valibot schema of every field once, from the catalogue and the configured
 * presets; `validateInput` then checks request bodies against them, and `readParams`
 * (`action-params.ts`) action bodies, whose parameters are described as fields too.
 */
/** The validator of a presets configuration, made once (pure functions given only presets use it). */
export function validatorFor(presets: Presets): InputValidator {
  let validator = validators.get(presets)
  if (!validator) validators.set(presets, (validator = new InputValidator(presets)))
  return validator
}
const validators = new WeakMap<Presets, InputValidator>()

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

  /** Allowed values of a preset field, for errors and presets discovery: its list, else the names it fixes. */
  allowed(field: Field): readonly string[] {
    return field.list ? this.presets.lists[field.list] ?? [] : field.values ?? []
  }

  /** The field's value in domain form, or undefined when the schema refuses it. */
  check(field: Field, value: unknown): FieldValue | undefined {
    const result = v.safeParse(this.schemaFor(field), value)
    return result.success ? result.output : undefined
  }

  parseField(resource: Resource, field: Field, value: unknown): FieldValue {
    const checked = this.check(field, value)
    if (checked !== undefined) return checked
    const names = field.type === 'preset' || field.type === 'presets'
    const listed = !field.ref && this.allowed(field).length <= SHOWN
    throw new BillingError(
      'invalid_field',
      `Invalid value ${preview(value)} for field "${field.name}" of ${resource.singular}`,
      this.hintFor(field),
      names && !listed ? { presetsOf: resource.name } : undefined,
    )
  }

  /**
   * Checks a create or update body: unknown and internal names, types, presets, read-only
   * fields (a different value refused, the same ignored), write-only ones (null ignored); a known
   * field given as undefined counts as absent. Tariff names are returned for the caller to check
   * against the database.
   */
  validateInput<N extends ResourceName>(resource: Resource<N>, input: unknown, current?: Item): ValidatedInput<ValuesOf<Entity<N>>> {
    const body = objectBody(input, 'Send a JSON object of the resource fields.')
    const values: Values = {}
    const refChecks: RefCheck[] = []
    const readOnlyDiffs: string[] = []
    for (const [name, raw] of Object.entries(body)) {
      const field = resource.byName.get(name)
      if (!field || field.internal) {
        const near = nearName(resource, name)
        throw new BillingError(
          'invalid_field',
          `Unknown field ${quoted(name)} for ${resource.singular}`,
          near ? `Property names are case-sensitive: did you mean "${near}"?` : `Remove ${quoted(name)}.`,
          near ? undefined : { fieldsOf: resource.name },
        )
      }
      // Absent, as action parameters read it: only a library caller can send undefined (JSON has
      // none), and contract 2 leaves an absent field unchanged.
      if (raw === undefined) continue
      // A value stored before its field kept amounts to 4 places, sent back unchanged, round-trips
      // (contract 2: GET → edit → PATCH); a new one is checked.
      const kept = field.decimals !== undefined && current !== undefined && typeof raw === 'number' && raw === current[name]
      const value = kept ? raw : this.parseField(resource, field, raw)
      // GET shows a write-only field as null whatever it holds: that null sent back says nothing
      // about the secret, so like a read-only field's same value it is ignored (GET → edit → PATCH
      // round-trips, contract 2) rather than taken as "clear".
      if (field.writeOnly && value === null) continue
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
    // Each value was parsed by its field's schema: the entity's type of that field.
    return { values: values as ValuesOf<Entity<N>>, refChecks }
  }

  /** What to give instead of a refused value. */
  hintFor(field: Field): string {
    switch (field.type) {
      case 'preset':
      case 'presets': {
        if (field.ref) return `Use the name of an existing ${field.ref === 'tariffs' ? 'call tariff' : 'fixed fee tariff'}.`
        const allowed = this.allowed(field)
        const shown = allowed.slice(0, SHOWN).map((a) => JSON.stringify(a)).join(', ')
        const more = allowed.length > SHOWN ? `, … (${allowed.length} in all)` : ''
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
        if (field.decimals !== undefined) return `A finite JSON number with at most ${field.decimals} decimal places.`
        return field.wholeFrom === undefined ? 'A finite JSON number.' : `A whole number of ${field.wholeFrom} or more.`
      case 'boolean':
        return 'true or false.'
      case 'id':
        return 'A positive integer ID as a string.'
      default:
        if (field.format === 'uuid') return 'A UUID such as "0b8e0f0c-4f6a-4a8e-9a57-2d1c3e6f7a81".'
        if (field.minLength) return `A string of ${field.minLength} to ${maxTextLength(field)} characters, without NUL (U+0000) or unpaired surrogates.`
        return `A string of at most ${maxTextLength(field)} characters, without NUL (U+0000) or unpaired surrogates.`
    }
  }

  private baseSchema(field: Field): v.GenericSchema<unknown, FieldValue> {
    switch (field.type) {
      case 'text':
        if (field.format === 'uuid') return v.pipe(v.string(), v.regex(UUID))
        return v.pipe(v.string(), v.minLength(field.minLength ?? 0), v.maxLength(maxTextLength(field)), v.check(isStorableText))
      case 'number':
        if (field.wholeFrom !== undefined) return v.pipe(v.number(), v.safeInteger(), v.minValue(field.wholeFrom))
        // An amount's places: parseMoney takes a number with at most 4 and no more (its shortest text).
        if (field.decimals !== undefined) return v.pipe(v.number(), v.finite(), v.check((n) => Math.abs(n) < MAX_NUMBER && parseMoney(n) !== null))
        return v.pipe(v.number(), v.finite(), v.check((n) => Math.abs(n) < MAX_NUMBER))
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
            if (m === null || !withinMoneyBound(m)) {
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
      case 'json':
        // Only the platform writes these fields (they are read-only): any JSON value compares.
        return v.unknown() as v.GenericSchema<unknown, FieldValue>
      case 'presets':
        return v.pipe(
          v.array(v.picklist(this.allowed(field) as string[])),
          v.transform((xs) => [...new Set(xs)]),
        )
    }
  }
}

/** A value as an error message quotes it: at most 60 characters, whatever its size or depth. */
export function preview(value: unknown): string {
  let text: string
  try {
    text = typeof value === 'string' && value.length > 60 ? value : JSON.stringify(value) ?? 'undefined'
  } catch {
    text = Array.isArray(value) ? '[…]' : '{…}' // too deep to serialise (the HTTP edge limits nesting; other callers may not)
  }
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}

/** The field a misspelt name differs from only in case, if any. */
function nearName(resource: Resource, name: string): string | undefined {
  const lower = name.toLowerCase()
  return resource.fields.find((f) => !f.internal && f.name.toLowerCase() === lower)?.name
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
