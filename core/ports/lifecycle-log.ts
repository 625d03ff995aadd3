import type { LifecycleEvent } from '../lifecycle/events.js'
import type { ItemKey } from '../lifecycle/levels.js'
import type { DateOnly } from '../dates/date-only.js'

/** An ignore-traffic number entry implied by a drop with `ignoreTrafficNumberType`. */
export interface IgnoreTrafficEntry {
  readonly numberID: string
  readonly number: string | null
  /** A name of `presets.lists.ignoreTrafficTypes`. */
  readonly type: string
  /** The drop date: traffic from then on is ignored. */
  readonly fromDate: DateOnly
}

/** An ignore-traffic entry as stored: with its customer, and the date its number was reinstated (null while it was not). */
export type StoredIgnoreTraffic = IgnoreTrafficEntry & { readonly customerID: string; readonly reinstatedDate: DateOnly | null }

/** A recorded lifecycle event with the customer whose tree it belongs to. */
export type StoredEvent = LifecycleEvent & { readonly customerID: string }

/** The lifecycle's own records: state-change events (read by billing) and ignore-traffic entries (read by rating). */
export interface LifecycleLog {
  append(events: readonly StoredEvent[]): Promise<void>
  /** Events of the given items, in the order they were recorded. */
  eventsOf(items: readonly ItemKey[]): Promise<LifecycleEvent[]>
  /**
   * Events of every item of the customers with IDs from `firstCustomerID` to `lastCustomerID`
   * (a billing run's page), in recorded order.
   */
  eventsOfCustomersBetween(firstCustomerID: string, lastCustomerID: string): Promise<StoredEvent[]>
  addIgnoreTraffic(entries: readonly (IgnoreTrafficEntry & { customerID: string })[]): Promise<void>
  /**
   * Ends the open entries of these numbers on `date`, the day they were reinstated: traffic from
   * then on is billed again. An entry ended before stays as it was.
   */
  endIgnoreTraffic(numberIDs: readonly string[], date: DateOnly): Promise<void>
  ignoreTraffic(): Promise<StoredIgnoreTraffic[]>
  /** Removes every record of a customer's tree (purge). */
  removeCustomer(customerID: string): Promise<void>
}
