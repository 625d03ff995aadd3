import { DynamicModule, type AliasedRawBuilder, type DynamicReferenceBuilder } from 'kysely'
import type { Field } from '../../core/fields/field.js'
import type { Item } from '../../core/fields/item.js'
import type { PackedRead } from './dialect/reads.js'
import type { RowCodec } from './row-codec.js'

/** What a read selects for some fields of a table, and how a result row becomes an item of them. */
export interface SelectedColumns {
  /** Columns named at run time (field lists), hence dynamic references. */
  readonly select: (AliasedRawBuilder<unknown, string> | DynamicReferenceBuilder<string>)[]
  readonly decode: (row: Record<string, unknown>) => Item
}

const dynamic = new DynamicModule()

/**
 * The fields' columns one by one, or those `pack` packs as one value (`ReadsDialect.packedRead`,
 * `packedRow`) and the rest beside it, decoded straight from the pack. The codec's other fields
 * (computed ones) are read from the row by name, where the caller selects them. Compiles a
 * decoder when packed: callers keep the result.
 */
export function selectedColumns(table: string, fields: readonly Field[], pack: PackedRead | null, codec: RowCodec): SelectedColumns {
  const column = (f: Field) => dynamic.ref<string>(`${table}.${f.name}`)
  if (!pack) return { select: fields.map(column), decode: (row) => codec.decode(row) }
  const inPack = new Map(pack.packed.map((f, i) => [f.name, i]))
  const decode = codec.decoderOf(inPack)
  return {
    select: [pack.column.as('packed'), ...fields.filter((f) => !inPack.has(f.name)).map(column)],
    decode: (row) => decode(row, pack.unpack(row.packed)),
  }
}
