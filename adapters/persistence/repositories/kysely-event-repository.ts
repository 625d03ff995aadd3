import type { Item } from '../../../core/fields/item.js'
import type { Condition, ListQuery, Parents } from '../../../core/ports/resource-repository.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'

/**
 * The events feed (contract 12): every read first numbers the events committed so far
 * (dialect/event-numbers.ts), so `GET /events/?idAfter=` finds each event once it is committed,
 * and never one below an ID it has already passed.
 */
export class KyselyEventRepository extends KyselyResourceRepository {
  override beforeRead(): Promise<void> {
    return this.dialect.numberEvents(this.db)
  }

  override async get(id: string): Promise<Item | undefined> {
    await this.beforeRead()
    return super.get(id)
  }

  override async list(query: ListQuery): Promise<Item[]> {
    await this.beforeRead()
    return super.list(query)
  }

  override async listIn(column: string, parents: Parents, where: readonly Condition[] = [], options: { readonly storedOnly?: boolean } = {}): Promise<Item[]> {
    await this.beforeRead()
    return super.listIn(column, parents, where, options)
  }
}
