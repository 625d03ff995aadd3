import { sql, type RawBuilder } from 'kysely'
import { memberSql, type SqlConversions, type WireMember, type WireSelect } from './list-json-dialect.js'

/**
 * SQLite's list JSON: one json_object call. Values that are not JSON strings go through json(),
 * which marks text that is already JSON for json_object to embed as it is. The text is taken as
 * a blob: its UTF-8 bytes as they are, where text would be decoded into a JavaScript string only
 * to be encoded again for the response (bench/lists.ts; figures in bench/RESULTS.md).
 */
export function sqliteListJson(members: readonly WireMember[]): WireSelect {
  const pairs = members.map((m) => sql`${sql.lit(m.field.name)}, ${memberValue(m)}`)
  return { column: sql`cast(json_object(${sql.join(pairs)}) as blob)`, assemble: (value) => value as Uint8Array }
}

function memberValue(m: WireMember): RawBuilder<unknown> {
  if (!m.value) return sql`null`
  if (!conversions[m.field.type] || !m.computed) return memberSql(conversions, m.field, m.value)
  // A conversion names its value several times: a computed one (a subquery) is evaluated once,
  // in a derived table of its own.
  return sql`(select ${memberSql(conversions, m.field, sql.ref('v'))} from (select ${m.value} as v))`
}

const conversions: SqlConversions = {
  id: (v) => sql`cast(${v} as text)`,
  text: null,
  // json_object writes a real as 3.0, or with 15 significant digits (0.1 + 0.2 as 0.3). Whole
  // numbers go as integers, others with 15 digits when those read back as the same double,
  // else with 17 ('!': printf's 17 digits, not 16), which always do.
  number: (v) =>
    sql`case when ${v} is null then null when ${v} = cast(${v} as integer) and abs(${v}) < 9e15 then cast(${v} as integer) when cast(printf('%.15g', ${v}) as real) = ${v} then json(printf('%.15g', ${v})) else json(printf('%!.17g', ${v})) end`,
  // Integer arithmetic on the ten-thousandths: the exact decimal, trailing zeros dropped.
  currency: (v) =>
    sql`json((case when ${v} < 0 then '-' else '' end) || (abs(${v}) / 10000) || rtrim(rtrim('.' || substr('0000' || (abs(${v}) % 10000), -4), '0'), '.'))`,
  date: null,
  datetime: null,
  boolean: (v) => sql`case ${v} when 1 then json('true') when 0 then json('false') end`,
  preset: null,
  presets: (v) => sql`json(${v})`,
  json: (v) => sql`json(${v})`,
}
