import type { Stamp } from '../dates/stamp.js'
import type { Resource } from '../fields/resource.js'

/** A history entry as core writes it; the store adds who made it (API key name, request ID). */
export interface NewHistoryEntry {
  readonly resource: string
  readonly resourceID: string
  readonly customerID: string | null
  readonly action: string
  readonly changes: Readonly<Record<string, readonly [unknown, unknown]>>
  readonly createdStamp: Stamp
}

/** An event as core appends it: `data` is the resource's JSON text as GET answers it. */
export interface NewEvent {
  readonly type: string
  readonly data: string
  readonly createdStamp: Stamp
}

/** Who is making the changes of the current unit of work (an API key, or `system` for the worker). */
export interface Actor {
  readonly apiKeyName: string
  readonly requestID: string | null
}

/**
 * History and the events outbox (contract 12). Both are written with the store they belong to,
 * so they commit and roll back with the change they describe.
 */
export interface ChangeLog {
  append(entries: readonly NewHistoryEntry[], events: readonly NewEvent[]): Promise<void>
  /**
   * Appends one event of `type` for each row of the collection that matches `where` (column =
   * value, or column in values), in ID order, its data written by the database: a billing run's
   * invoices are announced a batch at a time without reading them back.
   */
  appendEventsOf(type: string, resource: Resource, where: Readonly<Record<string, string | readonly string[]>>, createdStamp: Stamp): Promise<void>
}
