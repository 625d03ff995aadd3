import type { Field } from '../../core/fields/field.js'
import type { FieldValue, Item, Values } from '../../core/fields/item.js'
import type { Resource } from '../../core/fields/resource.js'
import { fromUnits, type Money } from '../../core/money/money.js'
import type { DatabaseDialect } from './dialect/dialect.js'

/** Converts between domain values and database values for one resource. */
export class RowCodec {
  /** Every field null: decoded items start as a copy, one shape for all (see decode). */
  private readonly blank: Readonly<Record<string, FieldValue>>

  constructor(
    readonly resource: Resource,
    private readonly dialect: DatabaseDialect,
  ) {
    this.blank = Object.fromEntries(resource.fields.map((f) => [f.name, null]))
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

  encodeValue(f: Field, value: FieldValue): unknown {
    if (value === null || value === undefined) return null
    switch (f.type) {
      case 'currency':
        return this.dialect.encodeBigint(value as Money)
      case 'boolean':
        return value ? 1 : 0
      case 'presets':
        return JSON.stringify(value)
      case 'id':
        return this.dialect.encodeBigint(BigInt(value as string))
      default:
        return value
    }
  }

  /**
   * A row as an item. Copying the blank gives the item all its keys at once; adding 150 keys
   * one by one made a shape change each and was most of the cost of reading a page of customers.
   */
  decode(row: Record<string, unknown>): Item {
    const item: Record<string, FieldValue> = { ...this.blank }
    for (const f of this.resource.fields) {
      const raw = row[f.name]
      if (raw !== null && raw !== undefined) item[f.name] = this.decodeValue(f, raw)
    }
    return item as Item
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
      default:
        return raw as string
    }
  }
}
