import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { Resource } from '../../../core/fields/resource.js'
import type { Condition, ListQuery } from '../../../core/ports/resource-repository.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { RowCodec } from '../row-codec.js'

/** How one resource's list conditions and paging are written into a query. */
export class ListConditions {
  private readonly table: string

  constructor(
    private readonly resource: Resource,
    private readonly codec: RowCodec,
    private readonly dialect: DatabaseDialect,
    /** The SQL of a computed field a condition names (a call's derived `transactionID`), if it is one. */
    private readonly computed: (name: string) => RawBuilder<unknown> | undefined = () => undefined,
  ) {
    this.table = resource.table
  }

  /** The conditions as WHERE clauses, values encoded as their columns store them. */
  apply<Q extends SelectQueryBuilder<any, any, any>>(q: Q, where: readonly Condition[]): Q {
    for (const c of where) {
      const field = this.resource.byName.get(c.column)
      const col: any = (field?.computed && this.computed(c.column)) || `${this.table}.${c.column}`
      switch (c.op) {
        case 'eq':
          q = (c.value === null ? q.where(col, 'is', null) : q.where(col, '=', field ? this.codec.encodeValue(field, c.value) : c.value)) as Q
          break
        case 'gte':
          q = q.where(col, '>=', c.value) as Q
          break
        case 'lte':
          q = q.where(col, '<=', c.value) as Q
          break
        case 'in':
          q = (c.values.length ? q.where((eb: any) => this.isOneOf(eb, col, c.column, c.values)) : q.where((eb) => eb.val(1), '=', 0)) as Q
          break
        case 'notIn':
          // `not in` alone would drop the nulls too, which are none of the values.
          if (c.values.length) q = q.where((eb: any) => eb.or([eb(col, 'is', null), eb.not(this.isOneOf(eb, col, c.column, c.values))])) as Q
          break
        case 'isNull':
          q = q.where(col, c.value ? 'is' : 'is not', null) as Q
          break
        case 'hasName':
          // Stored as a JSON array of names: a quoted name is one element, not a prefix of another.
          q = (c.value === null ? q.where(col, 'is not', null).where(col, '<>', '[]') : q.where(col, 'like', `%${JSON.stringify(c.value)}%`)) as Q
          break
      }
    }
    return q
  }

  /**
   * A list's paging: IDs after `idAfter`, in ID order, `limit` of them from `offset`. The limit
   * and offset are written into the SQL (they are whole numbers the list request validated):
   * bound as parameters, SQLite planned a search by accountNumber in ID order as a scan, and
   * used the index with them written out (bench/lists.ts; figures in bench/RESULTS.md).
   */
  paged(q: SelectQueryBuilder<any, any, any>, query: ListQuery): SelectQueryBuilder<any, any, any> {
    if (query.idAfter !== undefined) q = q.where(`${this.table}.id`, '>', this.dialect.encodeId(query.idAfter))
    q = q.orderBy(`${this.table}.id`).limit(sql.lit(wholeNumber(query.limit)))
    return query.offset ? q.offset(sql.lit(wholeNumber(query.offset))) : q
  }

  private isOneOf(eb: any, col: any, column: string, values: readonly string[]): any {
    const field = this.resource.byName.get(column)
    return isOneOf(this.dialect, eb, col, (field ? values.map((v) => this.codec.encodeValue(field, v)) : values) as (string | number | bigint)[])
  }
}

/** The longest list of values written out as parameters, one each. */
const SHORT_LIST = 500

/**
 * `col` holds one of the (encoded) values. A short list is written out (`in (?, ?, …)`), as the
 * planner has always seen it; a long one goes as one parameter (`inList`): the portal hides a
 * customer's hidden numbers' calls by listing them, and SQLite binds at most 32,766 parameters.
 */
export function isOneOf(dialect: DatabaseDialect, eb: any, col: any, values: readonly (string | number | bigint)[]): any {
  return values.length > SHORT_LIST ? dialect.inList(col, values) : eb(col, 'in', values)
}

/** A count written into SQL: refused unless it is a whole number, so nothing but digits reaches the text. */
function wholeNumber(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`)
  return n
}
