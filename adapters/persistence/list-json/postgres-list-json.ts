import { sql } from 'kysely'
import pg from 'pg'
import { memberSql, type SqlConversions, type WireMember, type WireSelect } from './list-json-dialect.js'

/** How the pool hands over a list read's JSON: as text (any pool) or as bytes (`jsonAsBytes`). */
export type WireTransfer = 'text' | 'bytes'

/**
 * Postgres's list JSON: row_to_json of a one-row select whose columns are the members.
 * json_build_object takes at most 100 arguments (50 members; a customer has 146) and writes
 * spaces around every colon; row_to_json has no limit and writes compact text.
 */
export function postgresListJson(transfer: WireTransfer): (members: readonly WireMember[]) => WireSelect {
  return (members) => {
    const columns = members.map((m) => sql`${m.value ? memberSql(conversions, m.field, m.value) : sql`null`} as ${sql.id(m.field.name)}`)
    // Text comes as the pool gives it (bytea would come over the wire as hex, twice the size);
    // json is what a pool with jsonAsBytes turns into bytes.
    const type = transfer === 'bytes' ? sql`json` : sql`text`
    const wire = sql<string>`(select row_to_json(w)::${type} from (select ${sql.join(columns)}) w)`
    return { column: wire, assemble: transfer === 'bytes' ? (value) => value as Uint8Array : (value) => Buffer.from(value as string) }
  }
}

const JSON_OID = 114

/**
 * node-postgres type parsers that give json values as their UTF-8 bytes, for a pool whose
 * list reads are `postgresListJson('bytes')` (connect() makes one; the platform selects json
 * nowhere else). node-postgres makes every value a string; a page of customers with their
 * numbers is thousands of strings of a few kB, kept until the last row came, which the young
 * generation copied and old space then collected (bench/lists.ts; figures in bench/RESULTS.md).
 * Each becomes bytes as its row arrives, and dies young.
 */
export const jsonAsBytes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === JSON_OID && format !== 'binary' ? toBytes : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

const SLAB = 1 << 20
let slab = Buffer.allocUnsafe(SLAB)
let used = 0

/**
 * A text's UTF-8 bytes, written into a shared slab: Buffer.from takes one of its small pools
 * per two or three items, and the thousand ArrayBuffers a page left for the collector were
 * themselves a cause of collections ("external memory pressure").
 */
function toBytes(text: string): Uint8Array {
  // A UTF-16 unit is at most 3 bytes of UTF-8.
  if (text.length * 3 > SLAB - used) {
    if (text.length * 3 > SLAB / 4) return Buffer.from(text)
    slab = Buffer.allocUnsafe(SLAB)
    used = 0
  }
  const start = used
  const written = slab.write(text, start, 'utf8')
  used = (start + written + 7) & ~7
  return slab.subarray(start, start + written)
}

// Text as stored; double precision is written with the shortest digits that read back the same.
const conversions: SqlConversions = {
  id: (v) => sql`${v}::text`,
  text: null,
  number: null,
  // numeric division is exact here; trim_scale drops the trailing zeros.
  currency: (v) => sql`trim_scale(${v}::numeric / 10000)`,
  date: null,
  datetime: null,
  boolean: (v) => sql`case ${v} when 1 then true when 0 then false end`,
  preset: null,
  presets: (v) => sql`${v}::json`,
  json: (v) => sql`${v}::json`,
}
