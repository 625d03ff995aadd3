import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import type { Money } from '../money/money.js'

/** A JSON object or array the platform writes (a history entry's changes, an event's resource). */
export type JsonValue = { readonly [key: string]: unknown } | readonly unknown[]

/** A field's value in the domain: text, numbers, exact money, dates, flags, name lists, JSON. */
export type FieldValue = string | number | boolean | Money | DateOnly | Stamp | readonly string[] | JsonValue | null

/** One stored resource row in domain form, keyed by field name; `id` is always present. */
export type Item = { readonly id: string } & Readonly<Record<string, FieldValue>>

/** Values to write: field name → domain value (null clears). */
export type Values = Record<string, FieldValue>
