import type { ResourceName } from '../fields/resource.js'
import type { Condition, ListQuery, Parents } from './resource-repository.js'

/** An item as the API answers it: its ID and its JSON text (what toWireJson writes) as UTF-8. */
export interface WireItem {
  readonly id: string
  /** Bytes, not a string: a page of them is written out as it came from the database, never decoded and encoded again. */
  readonly json: Uint8Array
  /** From `listIn`: the value of the column the items were asked for by (the parent's ID). */
  readonly key?: string | null
}

/**
 * Reads that only answer a request: each item's JSON text, written by the database where it
 * can, so a page of a thousand customers with their numbers builds no item in JavaScript (the
 * one read that stays in SQL: bench/lists.ts), and a GET of one item decodes and renders no row
 * (bench/get-customer.ts). The JSON is toWireJson's, from the same per-type conversions
 * (core/fields/wire-conversions.ts). Same rows and order as the repositories' `get`, `list`
 * and `listIn`.
 */
export interface ListJson {
  /** One item by ID, as `list` writes it; undefined where there is none (or `id` is no ID). */
  get(resource: ResourceName, id: string): Promise<WireItem | undefined>
  list(resource: ResourceName, query: ListQuery): Promise<WireItem[]>
  /** Rows whose `column` is one of the parents' IDs, in ID order, each with that column as `key`. */
  listIn(resource: ResourceName, column: string, parents: Parents, where?: readonly Condition[]): Promise<WireItem[]>
}
