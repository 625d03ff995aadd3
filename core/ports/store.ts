import type { FieldRef } from '../fields/field.js'
import type { ResourceName } from '../fields/resource.js'
import type { ApiKeyRepository } from './api-key-repository.js'
import type { ResourceRepository } from './resource-repository.js'

/**
 * The persistence the domain sees: a repository per resource, and transactions that
 * make a use case all-or-nothing. Inside `transaction`, the store passed to `work`
 * reads and writes within that transaction.
 */
export interface Store {
  repository(resource: ResourceName): ResourceRepository
  readonly apiKeys: ApiKeyRepository
  /** Which of `names` exist as names of the referenced resource (tariff names). */
  namesExisting(ref: FieldRef, names: readonly string[]): Promise<Set<string>>
  /** Every name of the referenced resource, in name order (presets discovery). */
  tariffNames(ref: FieldRef): Promise<string[]>
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>
  /** Serialises work on one key across processes for the rest of the transaction. */
  lock(key: string): Promise<void>
}
