import type { Entity } from '../fields/entity.js'
import type { FieldRef } from '../fields/field.js'
import type { ResourceName } from '../fields/resource.js'
import type { ApiKeyRepository } from './api-key-repository.js'
import type { CarrierData } from './carrier-data.js'
import type { Books } from './books.js'
import type { LifecycleLog } from './lifecycle-log.js'
import type { ChangeLog } from './change-log.js'
import type { WebhookOutbox } from './webhook-outbox.js'
import type { Ledger } from './ledger.js'
import type { BillingRunSource } from './billing-run-source.js'
import type { RunPartitions } from './run-partitions.js'
import type { RatingData } from './rating-data.js'
import type { Receivables } from './receivables.js'
import type { CreditControl } from './credit-control.js'
import type { AutoTopups } from './auto-topups.js'
import type { ContractEnds } from './contract-ends.js'
import type { TermSchedule } from './term-schedule.js'
import type { ContactRepository, ResourceRepository } from './resource-repository.js'
import type { ListJson } from './list-json.js'
import type { InvoiceNumbers } from './invoice-numbers.js'
import type { InvoiceOutbox } from './invoice-outbox.js'
import type { CallMarks } from './call-marks.js'
import type { CallbackReceipts } from './callback-receipts.js'
import type { CustomerRemains } from './customer-remains.js'
import type { TariffPricedFeatures } from './tariff-priced-features.js'
import type { Item, Values } from '../fields/item.js'
import type { NewEvent, NewHistoryEntry } from './change-log.js'

/** A write of an item about to be stored: `before` null for a create, `values` null for a delete. */
export interface ResourceWrite {
  readonly resource: ResourceName
  readonly before: Item | null
  readonly values: Values | null
}

/** The history entries and events that record a change (contract 12). */
export interface RecordedChanges {
  readonly entries: readonly NewHistoryEntry[]
  readonly events: readonly NewEvent[]
}

/**
 * The persistence the domain sees: a repository per resource, and transactions that
 * make a use case all-or-nothing. Inside `transaction`, the store passed to `work`
 * reads and writes within that transaction.
 */
export interface Store {
  /** The rows of a collection, typed as its entity (`Customer`, `BillingRun`, ...). */
  repository<N extends ResourceName>(resource: N): ResourceRepository<Entity<N>>
  /** List pages as the JSON the API answers with, written by the database. */
  readonly listJson: ListJson
  readonly apiKeys: ApiKeyRepository
  readonly contacts: ContactRepository
  readonly lifecycle: LifecycleLog
  readonly ledger: Ledger
  /** The customers and features a billing run reads. */
  readonly runSource: BillingRunSource
  /** The partitions of billing runs, claimed by the workers that bill them. */
  readonly runPartitions: RunPartitions
  readonly rating: RatingData
  /** Carriers' bulk data: destination tables' prefixes (contract 17). */
  readonly carriers: CarrierData
  /** The books' reports: margin, commissions, journals (contract 16.2-16.4). */
  readonly books: Books
  readonly receivables: Receivables
  /** History entries and events, written with the change they describe (contract 12). */
  readonly changes: ChangeLog
  /** Events fanned out to webhooks, and their deliveries' attempts. */
  readonly webhookOutbox: WebhookOutbox
  readonly creditControl: CreditControl
  /** The customers an automatic top-up may be due for, and their funds. */
  readonly autoTopups: AutoTopups
  /** The items whose contract end is to be announced (core/contract-ends). */
  readonly contractEnds: ContractEnds
  /** Features whose dates are due: annual increases, renewals (contract 11). */
  readonly terms: TermSchedule
  /** The invoice number counter (contract 14.1). */
  readonly invoiceNumbers: InvoiceNumbers
  /** Invoice deliveries: recorded as invoices are raised, sent by the invoice-delivery job (contract 14.2). */
  readonly invoiceOutbox: InvoiceOutbox
  /** When calls became billable, against billing runs (what a `Call Charges` row covers). */
  readonly callMarks: CallMarks
  /** The payment providers' callbacks processed, by webhook-id (contract 15.1). */
  readonly callbackReceipts: CallbackReceipts
  /** The rows a purged customer leaves that are no resource of their own (contract 5.6). */
  readonly customerRemains: CustomerRemains
  /** The features fixed fee tariffs price, for a change of a tariff's prices (core/billing/tariff-price-freeze.ts). */
  readonly tariffPriced: TariffPricedFeatures
  /**
   * Which of `names` exist as names of the referenced resource (tariff names). With `hold`, in a
   * transaction, the rows found stay share-locked until it ends: a rename or delete of one (which
   * locks it for update first) waits for the write that checked it, or that write for it (contract 4).
   */
  namesExisting(ref: FieldRef, names: readonly string[], options?: { readonly hold?: boolean }): Promise<Set<string>>
  /** Every name of the referenced resource, in name order (presets discovery). */
  tariffNames(ref: FieldRef): Promise<string[]>
  /** The first item whose tariff field names `name`, as "customer 12 (defaultMobileTariff)", or null. */
  findReference(ref: FieldRef, name: string): Promise<string | null>
  /**
   * Locks, in ID order, every item whose tariff field names `name`, until the transaction ends: a
   * rename takes its users after the tariff, in one order whatever else renames them.
   */
  lockReferences(ref: FieldRef, name: string): Promise<void>
  /** Renames every reference to a tariff (a tariff renamed keeps its users). */
  renameReferences(ref: FieldRef, from: string, to: string): Promise<void>
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>
  /**
   * Inserts an item with the history entries and events `record` gives for it, all or nothing:
   * what `transaction` would do with `repository(name).insert` and `changes.append`. `record`
   * must depend on nothing but the item: where the database allows (Postgres, outside a
   * transaction) it is called before the insert, with the item as it will be stored, and all
   * of it is sent as one statement.
   */
  insertRecorded<N extends ResourceName>(name: N, values: Values, record: (created: Item) => RecordedChanges): Promise<Entity<N>>
  /**
   * A transaction for a long bulk write (an import), all-or-nothing as `transaction`; where the
   * database allows, its statements run on a thread of their own, so `work` makes the next rows
   * while the last are written.
   */
  bulkTransaction<T>(work: (store: Store) => Promise<T>): Promise<T>
  /**
   * A transaction, all-or-nothing as `transaction`, whose bulk writes (`Ledger.raiseInvoices`)
   * are sent without waiting for their answers where the database allows (Postgres), with
   * `reads`, a store that reads beside it on another connection: what is committed, without the
   * transaction's own writes and without waiting for them. So `work` reads and plans its next
   * writes while the database makes the last. On a SQLite file only `reads.runSource` (a run's
   * pages) reads on another connection, a thread of its own, and the rest of `reads` in the
   * transaction. Elsewhere it is `transaction`, and `reads` is the transaction's own store.
   */
  pipelinedTransaction<T>(work: (store: Store, reads: Store) => Promise<T>): Promise<T>
  /**
   * Runs `work` in a transaction that is always rolled back, and returns what it returned: the
   * engine's own writes made to be read back, then undone (an invoice preview, contract 16.1).
   * Nothing it writes stays, nor counts towards the planner's statistics. IDs a database
   * sequence hands out meanwhile are not reused (Postgres sequences are outside transactions).
   */
  rehearse<T>(work: (store: Store) => Promise<T>): Promise<T>
  /** Serialises work on one key across processes for the rest of the transaction. */
  lock(key: string): Promise<void>
}
