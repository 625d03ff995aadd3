import type { Money } from '../money/money.js'
import type { CustomerContact, ValuesOf } from '../fields/entity.js'
import type { FieldValue, Item } from '../fields/item.js'
import type { Resource, ResourceName } from '../fields/resource.js'

/** One condition of a list query, on a stored column. */
export type Condition =
  | { readonly op: 'eq'; readonly column: string; readonly value: FieldValue }
  | { readonly op: 'gte'; readonly column: string; readonly value: string }
  | { readonly op: 'lte'; readonly column: string; readonly value: string }
  | { readonly op: 'in'; readonly column: string; readonly values: readonly string[] }
  | { readonly op: 'isNull'; readonly column: string; readonly value: boolean }
  /** The column holds none of the values (null holds none); no values: no condition. */
  | { readonly op: 'notIn'; readonly column: string; readonly values: readonly string[] }
  /** A Preset Value(s) column holds the name; null: holds any name. */
  | { readonly op: 'hasName'; readonly column: string; readonly value: string | null }

export interface ListQuery {
  readonly where: readonly Condition[]
  /** Only IDs above this one. */
  readonly idAfter?: string
  readonly offset?: number
  readonly limit: number
  /** Stored fields only: computed ones (a customer's balance, a feature's ledger figures) stay null. */
  readonly storedOnly?: boolean
}

/**
 * The parent rows children are read for: their IDs, or a query that finds them. Given as a
 * query, the database finds the parents itself, so an expansion's reads need not wait for the
 * page they expand (they run beside it).
 */
export type Parents = readonly string[] | ParentQuery

export type ParentQuery =
  /** The rows of `resource` that a list query returns (a page, with its paging). */
  | { readonly resource: ResourceName; readonly page: ListQuery }
  /** The rows of `resource` meeting `where` whose `column` is one of `parents` (a customer's numbers). */
  | { readonly resource: ResourceName; readonly where: readonly Condition[]; readonly column: string; readonly parents: Parents }

export const isIdList = (parents: Parents): parents is readonly string[] => Array.isArray(parents)

/**
 * Storage of one resource's rows, in domain form, typed as the resource's entity `E`
 * (`Store.repository('customers')` holds `Customer`s). Lists are ordered by ID ascending.
 * A unique field already taken fails with `unique_taken`.
 */
export interface ResourceRepository<E extends Item = Item> {
  readonly resource: Resource
  get(id: string): Promise<E | undefined>
  /** The row locked against concurrent writers until the transaction ends. */
  getForUpdate(id: string): Promise<E | undefined>
  list(query: ListQuery): Promise<E[]>
  /** Rows whose `column` is one of the parents' IDs, ordered by ID: expansions fetch children in one query. */
  listIn(column: string, parents: Parents, where?: readonly Condition[], options?: { readonly storedOnly?: boolean }): Promise<E[]>
  insert(values: ValuesOf<E>): Promise<E>
  update(id: string, values: ValuesOf<E>): Promise<E | undefined>
  remove(id: string): Promise<boolean>
  /** Locks the rows (in ID order, so lockers never deadlock) until the transaction ends. */
  lockIds(ids: readonly string[]): Promise<void>
  /** Deletes every row matching the conditions; returns how many went. */
  removeWhere(where: readonly Condition[]): Promise<number>
  /** Sets `values` on every row matching the conditions; returns how many changed. */
  updateWhere(where: readonly Condition[], values: ValuesOf<E>): Promise<number>
  /** A currency field summed over the rows that match, by the database: exact, and no row is read here. */
  sum(column: string, where: readonly Condition[]): Promise<Money>
}

/** Contacts: direct ones belong to a customer, shared ones are linked to many. */
export interface ContactRepository extends ResourceRepository<CustomerContact> {
  /** The customer's direct contacts plus the shared contacts linked to it, by ID. */
  listForCustomer(customerID: string, query: ListQuery): Promise<CustomerContact[]>
  link(customerID: string, contactID: string): Promise<void>
  unlink(customerID: string, contactID: string): Promise<boolean>
  isLinked(customerID: string, contactID: string): Promise<boolean>
  /** Removes every link of a customer or of a contact. */
  unlinkAll(by: { customerID?: string; contactID?: string }): Promise<void>
}
