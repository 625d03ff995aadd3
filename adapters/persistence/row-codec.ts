import { generatedFunction } from '../../core/codegen/generated-function.js'
import type { Field } from '../../core/fields/field.js'
import type { FieldValue, Item, Values } from '../../core/fields/item.js'
import type { Resource } from '../../core/fields/resource.js'
import { fromUnits, type Money } from '../../core/money/money.js'
import type { DatabaseDialect } from './dialect/dialect.js'

const decoders = new WeakMap<Resource, WeakMap<DatabaseDialect, (row: Record<string, unknown>) => Item>>()

/** Converts between domain values and database values for one resource. */
export class RowCodec {
  constructor(
    readonly resource: Resource,
    private readonly dialect: DatabaseDialect,
  ) {
    // Compiled once per resource and dialect: repositories (and their codecs) are made per transaction.
    let byDialect = decoders.get(resource)
    if (!byDialect) decoders.set(resource, (byDialect = new WeakMap()))
    let decode = byDialect.get(dialect)
    if (!decode) byDialect.set(dialect, (decode = compileDecoder(resource.fields, (f, raw) => this.decodeValue(f, raw))))
    this.decode = decode
  }

  encode(values: Values): Record<string, unknown> {
    const row: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(values)) {
      const f = this.resource.byName.get(name)
      if (!f || f.computed || name === 'id') continue
      row[name] = this.encodeValue(f, value)
    }
    return row
  }

  /**
   * The item a row inserted as `row` (encoded values by column) reads back as, its ID `id`,
   * without reading it: columns not given take their default (null; false for a flag), and text
   * is as the database keeps it (UTF-8: a lone surrogate is U+FFFD). Computed fields are not in it.
   */
  storedAs(row: Readonly<Record<string, unknown>>, id: string): Item {
    const stored: Record<string, unknown> = { id }
    for (const f of this.resource.columns) {
      if (f.name === 'id') continue
      const v = row[f.name]
      stored[f.name] = v === undefined ? (f.type === 'boolean' ? 0 : null) : typeof v === 'string' ? wellFormed(v) : v
    }
    return this.decode(stored)
  }

  encodeValue(f: Field, value: FieldValue): unknown {
    // A boolean's column is NOT NULL: cleared (`null` in a body), it is false, as it reads back.
    if (value === null || value === undefined) return f.type === 'boolean' ? 0 : null
    switch (f.type) {
      case 'currency':
        return this.dialect.encodeBigint(value as Money)
      case 'boolean':
        return value ? 1 : 0
      case 'presets':
      case 'json':
        return JSON.stringify(value)
      case 'id':
        return this.dialect.encodeId(value as string)
      default:
        return value
    }
  }

  /**
   * A row as an item: every field of the resource, null when the column is. The function is
   * written out for the resource (one object literal, each field's conversion inline) because
   * a loop over 150 fields with a switch for each was a tenth of the CPU time of a GET
   * (bench/get-customer.ts) and most of reading a page of customers (bench/lists.ts).
   */
  readonly decode: (row: Record<string, unknown>) => Item

  /**
   * A decoder, like `decode`, of rows whose values are not all columns by name: `source(f)` is
   * `packed` the fields whose stored value is at an index of the array `p` rather than a column of
   * `row` (the billing run's reads take most values from one packed array, see
   * `DatabaseDialect.packedRead`).
   * Compiled on each call: callers keep it.
   */
  decoderOf(packed: ReadonlyMap<string, number>): (row: Record<string, unknown>, p: readonly unknown[]) => Item {
    return compileDecoder(this.resource.fields, (f, raw) => this.decodeValue(f, raw), packed)
  }

  private decodeValue(f: Field, raw: unknown): FieldValue {
    switch (f.type) {
      case 'id':
        return String(raw)
      case 'currency':
        return fromUnits(this.dialect.decodeBigint(raw))
      case 'boolean':
        return raw === 1 || raw === true || raw === '1'
      case 'number':
        return Number(raw)
      case 'presets':
        return JSON.parse(raw as string) as string[]
      case 'json':
        return JSON.parse(raw as string) as FieldValue
      default:
        return raw as string
    }
  }
}

/**
 * `decode` for these fields. Text and numbers convert inline; other types call `convert`. The
 * names are quoted with JSON.stringify, so any field name is a safe literal key. A field in
 * `packed` is read from `p` at its index instead of from `row`.
 */
function compileDecoder(
  fields: readonly Field[],
  convert: (f: Field, raw: unknown) => FieldValue,
  packed: ReadonlyMap<string, number> = new Map(),
): (row: Record<string, unknown>, p?: readonly unknown[]) => Item {
  const source = (f: Field) => (packed.has(f.name) ? `p[${packed.get(f.name)}]` : `row[${JSON.stringify(f.name)}]`)
  const parts = fields.map((f, i) => {
    const value = f.type === 'number' ? `Number(v)` : isText(f) ? 'v' : `convert(fields[${i}], v)`
    return `${JSON.stringify(f.name)}: (v = ${source(f)}) === null || v === undefined ? null : ${value}`
  })
  return generatedFunction({
    name: 'decode',
    params: ['row', 'p'],
    body: `let v; return {${parts.join(',\n')}}`,
    scope: { fields, convert },
    fallback: (row: Record<string, unknown>, p?: readonly unknown[]) => {
      const item: Record<string, FieldValue> = {}
      for (const f of fields) {
        const at = packed.get(f.name)
        const v = at === undefined ? row[f.name] : p![at]
        item[f.name] = v === null || v === undefined ? null : f.type === 'number' ? Number(v) : isText(f) ? (v as string) : convert(f, v)
      }
      return item as Item
    },
  })
}

/** A string as it reads back from a UTF-8 database: node-postgres writes a lone surrogate as U+FFFD. */
const wellFormed = (s: string): string => {
  const text = s as string & { isWellFormed(): boolean; toWellFormed(): string }
  return text.isWellFormed() ? s : text.toWellFormed()
}

const isText = (f: Field): boolean => !['id', 'currency', 'boolean', 'number', 'presets', 'json'].includes(f.type)
