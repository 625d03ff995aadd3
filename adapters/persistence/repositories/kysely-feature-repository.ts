import { dueDateOf } from '../../../core/billing/feature-billing.js'
import { totalValueCharged, totalValueRemaining } from '../../../core/billing/feature-totals.js'
import { historyOf, toBillingFeature } from '../../../core/billing/stored-feature.js'
import type { Feature } from '../../../core/fields/entity.js'
import type { Item } from '../../../core/fields/item.js'
import { roleOf } from '../../../core/billing/ledger-row.js'
import type { LedgerRow } from '../../../core/ports/ledger.js'
import { addDays, type DateOnly } from '../../../core/dates/date-only.js'
import { KyselyLedger } from './kysely-ledger.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'

/**
 * The first day not yet charged. A feature priced by a fixed fee tariff has no charge of its
 * own to lay out periods with, so its due date is read off the ledger.
 */
function dueDate(item: Feature, rows: LedgerRow[]): DateOnly | null {
  const feature = toBillingFeature(item, null)
  if (!feature.startDate) return null
  if (item.serviceCharge != null || item.chargeHistory) return dueDateOf(feature, historyOf(item), rows)
  let last: DateOnly | null = null
  for (const r of rows) if (r.kind === 'recurring' && roleOf(r.transactionType) === 'charge' && (!last || r.periodEnd > last)) last = r.periodEnd
  return last ? addDays(last, 1) : feature.startDate
}

/** Features, with `dueDate`, `totalValueCharged` and `totalValueRemaining` from the ledger. */
export class KyselyFeatureRepository extends KyselyResourceRepository {
  protected override async finish(items: Item[]): Promise<Item[]> {
    if (items.length === 0) return items
    const ledger = await new KyselyLedger(this.db, this.dialect).engineRows(items.map((i) => i.id))
    // Rows decoded by the features' catalogue entry: each is a Feature.
    return (items as Feature[]).map((item) => {
      const rows = ledger.get(item.id) ?? []
      const charged = totalValueCharged(rows)
      const feature = toBillingFeature(item, null)
      return {
        ...item,
        dueDate: dueDate(item, rows),
        totalValueCharged: charged,
        totalValueRemaining: totalValueRemaining(feature.totalFeatureValue, charged),
      }
    })
  }
}
