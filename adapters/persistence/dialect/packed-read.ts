import { sql } from 'kysely'
import type { Field } from '../../../core/fields/field.js'
import type { PackedRead } from './reads.js'

/** 2^53 - 1: integers beyond it do not survive JSON.parse exactly. */
const EXACT = sql.raw('9007199254740991')

/**
 * SQLite's `packedRead` and `packedRow`: the columns as one JSON array, parsed by JSON.parse,
 * which makes a row's values far faster than better-sqlite3 hands over columns one by one.
 * Reals stay out: JSON writes them with 15 significant digits. Integers (IDs, money) beyond
 * 2^53 - 1 go in as text, which the codec reads as it reads a column (BigInt, String).
 */
export function sqlitePackedRead(table: string, fields: readonly Field[]): PackedRead {
  const packed = fields.filter((f) => f.type !== 'number')
  const values = packed.map((f) => {
    const column = sql.ref(`${table}.${f.name}`)
    return f.type === 'id' || f.type === 'currency' ? sql`case when ${column} between -${EXACT} and ${EXACT} then ${column} else cast(${column} as text) end` : column
  })
  return { packed, column: sql`json_array(${sql.join(values)})`, unpack: (value) => JSON.parse(value as string) as unknown[] }
}

/**
 * Postgres's `packedRow`: every column as its text in one JSON array (`::text` so the pool's
 * json parser leaves it a string). A bigint's text is exact, and a double's is the shortest
 * that reads back the same (extra_float_digits 1, the default since Postgres 12), so every
 * field packs; the codec reads the texts as it reads those columns.
 */
export function postgresPackedRead(table: string, fields: readonly Field[]): PackedRead {
  const values = fields.map((f) => sql`${sql.ref(`${table}.${f.name}`)}::text`)
  return { packed: fields, column: sql`array_to_json(array[${sql.join(values)}])::text`, unpack: (value) => JSON.parse(value as string) as unknown[] }
}
