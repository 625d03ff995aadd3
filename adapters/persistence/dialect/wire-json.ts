import type { RawBuilder } from 'kysely'
import type { Field } from '../../../core/fields/field.js'

/** One member of an object the database writes as wire JSON (see `WireJsonDialect.wireJson`). */
export interface WireMember {
  readonly field: Field
  /** The member's stored value (a column, or a computed expression); null: always null (write-only fields). */
  readonly value: RawBuilder<unknown> | null
  /** The value is an expression, not a column: evaluated once, however often its conversion refers to it. */
  readonly computed?: boolean
}

/** What a wire read selects (as `w0`), and how that value becomes the item's JSON text in UTF-8. */
export interface WireSelect {
  readonly column: RawBuilder<unknown>
  readonly assemble: (value: unknown) => Uint8Array
}

/** How the database writes an item's JSON (sqlite-wire-json.ts, postgres-wire-json.ts). */
export interface WireJsonDialect {
  /**
   * The text of a JSON object with these members, in this order, each value written as
   * toWireJson writes it (money as its decimal number, booleans, IDs as strings, preset lists as
   * arrays, unset lists as []), written by the database as far as it can: a read that only
   * answers a request takes that text instead of building an item of 150 fields and writing it
   * again (bench/get-customer.ts, bench/lists.ts). Numbers may be written with other digits
   * than JavaScript's, never with another value (tests/persistence/wire-json-sql.test.ts).
   */
  wireJson(members: readonly WireMember[]): WireSelect
}
