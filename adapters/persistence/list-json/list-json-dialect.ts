import { sql, type RawBuilder } from 'kysely'
import type { Field, WireType } from '../../../core/fields/field.js'
import type { Resource } from '../../../core/fields/resource.js'
import { wireConversions } from '../../../core/fields/wire-conversions.js'

/** One member of an object the database writes as list JSON. */
export interface WireMember {
  readonly field: Field
  /** The member's stored value (a column, or a computed expression); null: always null (write-only fields). */
  readonly value: RawBuilder<unknown> | null
  /** The value is an expression, not a column: evaluated once, however often its conversion refers to it. */
  readonly computed?: boolean
}

/** What a list read selects (as `w0`), and how that value becomes the item's JSON text in UTF-8. */
export interface WireSelect {
  readonly column: RawBuilder<unknown>
  readonly assemble: (value: unknown) => Uint8Array
}

/**
 * How a database writes one JSON object with these members, in this order, each value written
 * as toWireJson writes it: the text of a list page's items, taken as it comes instead of
 * building items of 150 fields and writing them again (bench/lists.ts). Numbers may be written
 * with other digits than JavaScript's, never with another value
 * (tests/persistence/list-json.test.ts).
 */
export type ListJsonDialect = (members: readonly WireMember[]) => WireSelect

/**
 * A database's side of `wireConversions` (core/fields/wire-conversions.ts): the SQL that turns a
 * stored, non-null value of each wire type into its JSON value; null where the stored value is
 * written as it is. Keyed by every wire type, so a type added there fails to compile here until
 * each database can write it.
 */
export type SqlConversions = { readonly [T in WireType]: ((value: RawBuilder<unknown>) => RawBuilder<unknown>) | null }

/**
 * The value of a member as the database writes it: its type's conversion of the stored value,
 * with an unset value first replaced by its type's `unset` JSON (an unset list is []), which
 * every conversion that meets one (a JSON column's) reads as JSON.
 */
export function memberSql(conversions: SqlConversions, field: Field, value: RawBuilder<unknown>): RawBuilder<unknown> {
  const { unset } = wireConversions[field.type]
  const stored = unset === 'null' ? value : sql`coalesce(${value}, ${sql.lit(unset)})`
  const convert = conversions[field.type]
  return convert ? convert(stored) : stored
}

/**
 * The members of a resource's JSON as the database writes it: every field toWireJson shows, in
 * catalogue order, read from the table's columns; `computed` gives the SQL of the computed
 * fields (a customer's balance). Internal fields are never shown, write-only ones are null.
 */
export function listJsonMembers(resource: Resource, table: string, computed: Readonly<Record<string, RawBuilder<unknown>>>): WireMember[] {
  return resource.fields
    .filter((f) => !f.internal)
    .map((field) => {
      if (field.writeOnly) return { field, value: null }
      // A stored field the repository writes from an expression (a customer's credit alerts read against today).
      if (!field.computed && computed[field.name]) return { field, value: computed[field.name], computed: true }
      if (field.computed) {
        const value = computed[field.name]
        if (!value) throw new Error(`${resource.name}.${field.name} is computed outside the database`)
        return { field, value, computed: true }
      }
      return { field, value: sql.ref(`${table}.${field.name}`) }
    })
}
