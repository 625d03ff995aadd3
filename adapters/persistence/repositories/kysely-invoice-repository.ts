import type { SelectQueryBuilder } from 'kysely'
import type { Item } from '../../../core/fields/item.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import { ListConditions } from './list-conditions.js'
import { KyselyResourceRepository, type Today } from './kysely-resource-repository.js'
import type { Resource } from '../../../core/fields/resource.js'
import type { RowCodec } from '../row-codec.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { statusConditions } from './invoice-status.js'
import { statusOf } from '../../../core/billing/allocation.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { Money } from '../../../core/money/money.js'

/**
 * Invoices, with their status read against today (contract 17.6) by the rule allocation uses
 * (`statusOf`: paid when nothing is outstanding, overdue after the overdue date). Their list
 * JSON is made from items (`computedSql` null), since the status is worked out here.
 */
export class KyselyInvoiceRepository extends KyselyResourceRepository {
  override readonly conditions: ListConditions = new TodaysConditions(this.resource, this.codec, this.dialect, () => this.today())

  override computedSql(): null {
    return null
  }

  protected override async finish(items: Item[]): Promise<Item[]> {
    const today = this.today()
    return items.map((i) => {
      // A draft stays one until its run is approved (contract 16.1): it is owed nothing yet.
      if (i.status === 'Draft') return i
      const status = statusOf(i.amountOutstanding as Money, (i.overdueDate as DateOnly | null) ?? null, today)
      return status === i.status ? i : ({ ...i, status } as Item)
    })
  }
}

/** The list conditions of invoices, a status filter read against today. */
class TodaysConditions extends ListConditions {
  constructor(
    resource: Resource,
    codec: RowCodec,
    dialect: DatabaseDialect,
    private readonly today: Today,
  ) {
    super(resource, codec, dialect)
  }

  override apply<Q extends SelectQueryBuilder<any, any, any>>(q: Q, where: readonly Condition[]): Q {
    return super.apply(q, statusConditions(where, this.today()))
  }
}
