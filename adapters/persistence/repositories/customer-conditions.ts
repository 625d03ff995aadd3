import type { RawBuilder, SelectQueryBuilder } from 'kysely'
import type { Resource } from '../../../core/fields/resource.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { RowCodec } from '../row-codec.js'
import { ListConditions } from './list-conditions.js'

/**
 * The SQL that finds the customers showing the alert `name` (null: any alert), or null where the
 * stored `creditAlerts` column already says it.
 */
export type ShownAlert = (name: string | null) => RawBuilder<boolean> | null

/**
 * The list conditions of customers: `?creditAlert=` finds the alerts each customer shows when
 * read, which for the overdue one is today's overdue amount (contract 17.6), not the stored
 * column the daily job keeps. Other conditions, and the other names, are the stored column's.
 */
export class CustomerConditions extends ListConditions {
  constructor(
    resource: Resource,
    codec: RowCodec,
    dialect: DatabaseDialect,
    computed: (name: string) => RawBuilder<unknown> | undefined,
    private readonly shown: ShownAlert,
  ) {
    super(resource, codec, dialect, computed)
  }

  override apply<Q extends SelectQueryBuilder<any, any, any>>(q: Q, where: readonly Condition[]): Q {
    const stored: Condition[] = []
    for (const c of where) {
      const shown = c.op === 'hasName' && c.column === 'creditAlerts' ? this.shown(c.value) : null
      if (shown) q = q.where(shown) as Q
      else stored.push(c)
    }
    return super.apply(q, stored)
  }
}
