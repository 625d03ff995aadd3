import { sql, type RawBuilder } from 'kysely'
import type { Field } from '../../../core/fields/field.js'
import type { WireMember, WireSelect } from './dialect.js'

/**
 * Postgres's `wireJson`: row_to_json of a one-row select whose columns are the members.
 * json_build_object takes at most 100 arguments (50 members; a customer has 146) and writes
 * spaces around every colon; row_to_json has no limit and writes compact text.
 */
export function postgresWireJson(members: readonly WireMember[]): WireSelect {
  const columns = members.map((m) => sql`${m.value ? convert(m.field, m.value) : sql`null`} as ${sql.id(m.field.name)}`)
  const wire = sql<string>`(select row_to_json(w)::text from (select ${sql.join(columns)}) w)`
  // Taken as text: bytea would come over the wire as hex, twice the size.
  return { column: wire, assemble: (value) => Buffer.from(value as string) }
}

function convert(f: Field, v: RawBuilder<unknown>): RawBuilder<unknown> {
  switch (f.type) {
    case 'id':
      return sql`${v}::text`
    case 'boolean':
      return sql`case ${v} when 1 then true when 0 then false end`
    case 'presets':
      return sql`coalesce(${v}::json, '[]'::json)`
    case 'currency':
      // numeric division is exact here; trim_scale drops the trailing zeros.
      return sql`trim_scale(${v}::numeric / 10000)`
    default:
      // Text as stored; double precision is written with the shortest digits that read back the same.
      return v
  }
}
