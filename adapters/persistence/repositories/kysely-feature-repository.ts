import { dueDateOf } from '../../../core/billing/feature-billing.js'
import { totalValueCharged, totalValueRemaining } from '../../../core/billing/feature-totals.js'
import { historyOf, toBillingFeature } from '../../../core/billing/stored-feature.js'
import type { Item } from '../../../core/fields/item.js'
import { KyselyLedger } from './kysely-ledger.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'

/** Features, with `dueDate`, `totalValueCharged` and `totalValueRemaining` from the ledger. */
export class KyselyFeatureRepository extends KyselyResourceRepository {
  protected override async finish(items: Item[]): Promise<Item[]> {
    if (items.length === 0) return items
    const ledger = await new KyselyLedger(this.db, this.dialect).engineRows(items.map((i) => i.id))
    return items.map((item) => {
      const rows = ledger.get(item.id) ?? []
      const charged = totalValueCharged(rows)
      const feature = toBillingFeature(item, null)
      return {
        ...item,
        dueDate: feature.startDate ? dueDateOf(feature, historyOf(item), rows) : null,
        totalValueCharged: charged,
        totalValueRemaining: totalValueRemaining(feature.totalFeatureValue, charged),
      }
    })
  }
}
