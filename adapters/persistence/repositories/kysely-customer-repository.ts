import type { Item } from '../../../core/fields/item.js'
import { ZERO } from '../../../core/money/money.js'
import { KyselyLedger } from './kysely-ledger.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'

/** Customers, with the read-only `balance` from the ledger (one query per page). */
export class KyselyCustomerRepository extends KyselyResourceRepository {
  protected override async finish(items: Item[]): Promise<Item[]> {
    if (items.length === 0) return items
    const balances = await new KyselyLedger(this.db, this.dialect).balances(items.map((i) => i.id))
    return items.map((i) => ({ ...i, balance: balances.get(i.id) ?? ZERO }))
  }
}
