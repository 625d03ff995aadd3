import { anyTables, type Db } from './schema/tables.js'
import type { Entity } from '../../core/fields/entity.js'
import type { FieldRef } from '../../core/fields/field.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import type { ApiKeyRepository } from '../../core/ports/api-key-repository.js'
import type { ContactRepository, ResourceRepository } from '../../core/ports/resource-repository.js'
import type { RecordedChanges, Store } from '../../core/ports/store.js'
import type { Item, Values } from '../../core/fields/item.js'
import { CompiledQueries } from './compiled-queries.js'
import type { DatabaseDialect } from './dialect/dialect.js'
import { KyselyApiKeyRepository } from './repositories/kysely-api-key-repository.js'
import { RecentKeys } from './repositories/recent-keys.js'
import { KyselyContactRepository } from './repositories/kysely-contact-repository.js'
import { KyselyLifecycleLog } from './repositories/kysely-lifecycle-log.js'
import { KyselyLedger } from './repositories/kysely-ledger.js'
import { PlannerStatistics } from './planner-statistics.js'
import { KyselyBillingRunSource } from './repositories/kysely-billing-run-source.js'
import type { BillingRunSource } from '../../core/ports/billing-run-source.js'
import { KyselyTermSchedule } from './repositories/kysely-term-schedule.js'
import { KyselyTariffPricedFeatures } from './repositories/kysely-tariff-priced-features.js'
import type { TariffPricedFeatures } from '../../core/ports/tariff-priced-features.js'
import type { TermSchedule } from '../../core/ports/term-schedule.js'
import { KyselyRunPartitions } from './repositories/kysely-run-partitions.js'
import type { RunPartitions } from '../../core/ports/run-partitions.js'
import { KyselyCustomerRepository } from './repositories/kysely-customer-repository.js'
import { KyselyFeatureRepository } from './repositories/kysely-feature-repository.js'
import type { Ledger } from '../../core/ports/ledger.js'
import type { RatingData } from '../../core/ports/rating-data.js'
import { KyselyRatingData } from './repositories/kysely-rating-data.js'
import { KyselyCarrierData } from './repositories/kysely-carrier-data.js'
import type { CarrierData } from '../../core/ports/carrier-data.js'
import type { Books } from '../../core/ports/books.js'
import { KyselyBooks } from './reports/kysely-books.js'
import { KyselyReceivables } from './repositories/kysely-receivables.js'
import { KyselyChangeLog, SYSTEM_ACTOR } from './repositories/kysely-change-log.js'
import { KyselyWebhookOutbox } from './repositories/kysely-webhook-outbox.js'
import type { WebhookOutbox } from '../../core/ports/webhook-outbox.js'
import type { InvoiceNumbers } from '../../core/ports/invoice-numbers.js'
import { KyselyInvoiceNumbers } from './repositories/kysely-invoice-numbers.js'
import type { InvoiceOutbox } from '../../core/ports/invoice-outbox.js'
import { KyselyInvoiceOutbox } from './repositories/kysely-invoice-outbox.js'
import type { Actor, ChangeLog } from '../../core/ports/change-log.js'
import type { Receivables } from '../../core/ports/receivables.js'
import type { CreditControl } from '../../core/ports/credit-control.js'
import { KyselyCreditControl } from './repositories/kysely-credit-control.js'
import type { AutoTopups } from '../../core/ports/auto-topups.js'
import type { ContractEnds } from '../../core/ports/contract-ends.js'
import { KyselyAutoTopups } from './repositories/kysely-auto-topups.js'
import { KyselyContractEnds } from './repositories/kysely-contract-ends.js'
import type { LifecycleLog } from '../../core/ports/lifecycle-log.js'
import { KyselyResourceRepository, systemToday, type Peers, type Today } from './repositories/kysely-resource-repository.js'
import { KyselyInvoiceRepository } from './repositories/kysely-invoice-repository.js'
import { KyselyCallRepository } from './repositories/kysely-call-repository.js'
import { KyselyTransactionRepository } from './repositories/kysely-transaction-repository.js'
import { KyselyEventRepository } from './repositories/kysely-event-repository.js'
import { KyselyCallMarks } from './repositories/kysely-call-marks.js'
import type { CallMarks } from '../../core/ports/call-marks.js'
import { KyselyCallbackReceipts } from './repositories/kysely-callback-receipts.js'
import { KyselyCustomerRemains } from './repositories/kysely-customer-remains.js'
import type { CustomerRemains } from '../../core/ports/customer-remains.js'
import type { CallbackReceipts } from '../../core/ports/callback-receipts.js'
import { KyselyListJson, type ListJsonSelects } from './list-json/kysely-list-json.js'
import type { ListJson } from '../../core/ports/list-json.js'
import type { BulkWrites, WriteAhead } from './bulk-writes.js'

/** Resources whose rows carry computed fields or extra queries. */
const specialised: Partial<Record<ResourceName, RepositoryFactory>> = {
  customers: (...a) => new KyselyCustomerRepository(...a),
  features: (...a) => new KyselyFeatureRepository(...a),
  customerContacts: (...a) => new KyselyContactRepository(...a),
  invoices: (...a) => new KyselyInvoiceRepository(...a),
  calls: (...a) => new KyselyCallRepository(...a),
  transactions: (...a) => new KyselyTransactionRepository(...a),
  events: (...a) => new KyselyEventRepository(...a),
}

export type RepositoryFactory = (db: Db, dialect: DatabaseDialect, resource: Resource, queries: CompiledQueries, peers: Peers, today: Today) => KyselyResourceRepository

export interface StoreOptions {
  /** How long an active API key's lookup is kept (see RecentKeys); 0, the default, keeps none. */
  readonly keyCacheMs?: number
  /** Repositories to use instead of the generic one, by resource. */
  readonly factories?: Partial<Record<ResourceName, RepositoryFactory>>
  /** Who history entries name (the request's API key); `system` by default. */
  readonly actor?: () => Actor
  /** Another connection for reads beside a transaction (`Database.readsBeside`): an import's lookups use it. */
  readonly readsBeside?: Db
  /** Where bulk transactions run (`Database.bulkWrites`). */
  readonly bulkWrites?: BulkWrites
  /** Where pipelined transactions run (`Database.pipelinedWrites`), reading beside on `readsBeside`. */
  readonly pipelinedWrites?: BulkWrites
  /** Where a billing run's pages (`runSource`) are read, when not on `db`: a SQLite file's reads thread. */
  readonly pagesBeside?: Db
  /**
   * Today, from the platform's clock: what is overdue is worked out against it where it is read
   * (contract 17.6). The system date by default.
   */
  readonly today?: Today
}

/** What a store and the stores of its transactions share: they are all on one root database. */
/** Thrown to roll a rehearsal back, carrying what it returned. */
class Rehearsed<T> {
  result: T | undefined
}

interface Shared {
  readonly queries: CompiledQueries
  readonly recentKeys: RecentKeys
  readonly factories: Partial<Record<ResourceName, RepositoryFactory>>
  readonly actor: () => Actor
  readonly statistics: PlannerStatistics
  readonly listJsonSelects: ListJsonSelects
  readonly today: Today
}

/** The Kysely implementation of the Store port, for one connection or one transaction. */
export class KyselyStore implements Store {
  private readonly repositories = new Map<ResourceName, KyselyResourceRepository>()
  private readonly peers: Peers = (name) => this.repositoryOf(name)
  readonly apiKeys: ApiKeyRepository
  readonly listJson: ListJson
  readonly lifecycle: LifecycleLog
  readonly ledger: Ledger
  readonly runSource: BillingRunSource
  readonly runPartitions: RunPartitions
  readonly rating: RatingData
  readonly carriers: CarrierData
  readonly books: Books
  readonly receivables: Receivables
  readonly changes: ChangeLog
  readonly webhookOutbox: WebhookOutbox
  readonly creditControl: CreditControl
  readonly autoTopups: AutoTopups
  readonly contractEnds: ContractEnds
  readonly terms: TermSchedule
  readonly invoiceNumbers: InvoiceNumbers
  readonly callMarks: CallMarks
  readonly invoiceOutbox: InvoiceOutbox
  readonly callbackReceipts: CallbackReceipts
  readonly customerRemains: CustomerRemains
  readonly tariffPriced: TariffPricedFeatures
  private readonly bulkWrites?: BulkWrites
  private readonly pipelinedWrites?: BulkWrites
  private readonly readsBeside?: Db

  constructor(
    readonly db: Db,
    readonly dialect: DatabaseDialect,
    private readonly resources: ReadonlyMap<ResourceName, Resource>,
    options: StoreOptions = {},
    private readonly inTransaction = false,
    private readonly shared: Shared = {
      queries: new CompiledQueries(),
      recentKeys: new RecentKeys(options.keyCacheMs ?? 0),
      factories: options.factories ?? {},
      actor: options.actor ?? (() => SYSTEM_ACTOR),
      statistics: new PlannerStatistics(dialect.statistics),
      listJsonSelects: new Map(),
      today: options.today ?? systemToday,
    },
    /** How a bulk or pipelined transaction sends writes ahead: an import's calls, a billing step's invoices. */
    readonly writeAhead?: WriteAhead,
  ) {
    this.apiKeys = new KyselyApiKeyRepository(db, shared.queries, shared.recentKeys)
    this.listJson = new KyselyListJson(db, dialect, shared.queries, this.peers, shared.listJsonSelects)
    this.lifecycle = new KyselyLifecycleLog(db, dialect)
    // Statistics are looked at once writes commit: at once here, after the commit in a transaction.
    this.ledger = new KyselyLedger(db, dialect, async (table, rows) => {
      shared.statistics.wrote(table, rows)
      if (!inTransaction) await shared.statistics.refresh(db)
    }, writeAhead)
    this.runSource = new KyselyBillingRunSource(options.pagesBeside ?? db, dialect)
    this.runPartitions = new KyselyRunPartitions(db, dialect)
    this.rating = new KyselyRatingData(db, dialect, options.readsBeside, writeAhead)
    this.carriers = new KyselyCarrierData(db, dialect)
    this.books = new KyselyBooks(db, dialect)
    this.bulkWrites = options.bulkWrites
    this.pipelinedWrites = options.pipelinedWrites
    this.readsBeside = options.readsBeside
    this.receivables = new KyselyReceivables(db, dialect)
    this.changes = new KyselyChangeLog(db, dialect, shared.actor)
    this.webhookOutbox = new KyselyWebhookOutbox(db, dialect)
    this.creditControl = new KyselyCreditControl(db, dialect, shared.today)
    this.autoTopups = new KyselyAutoTopups(db, dialect)
    this.contractEnds = new KyselyContractEnds(db, dialect)
    this.terms = new KyselyTermSchedule(db, dialect)
    this.invoiceNumbers = new KyselyInvoiceNumbers(db, dialect)
    this.callMarks = new KyselyCallMarks(db, dialect)
    this.invoiceOutbox = new KyselyInvoiceOutbox(db, dialect)
    this.callbackReceipts = new KyselyCallbackReceipts(db)
    this.customerRemains = new KyselyCustomerRemains(db, dialect)
    this.tariffPriced = new KyselyTariffPricedFeatures(db, dialect)
  }

  get contacts(): ContactRepository {
    return this.repository('customerContacts') as ContactRepository
  }

  /**
   * The repository of a collection, typed as its entity: a repository decodes every row by the
   * resource's catalogue description, which is what the entity type is derived from.
   */
  repository<N extends ResourceName>(name: N): ResourceRepository<Entity<N>> {
    return this.repositoryOf(name) as ResourceRepository as unknown as ResourceRepository<Entity<N>>
  }

  private repositoryOf(name: ResourceName): KyselyResourceRepository {
    let repo = this.repositories.get(name)
    if (!repo) {
      const resource = this.resources.get(name)
      if (!resource) throw new Error(`no table for ${name}`)
      const factory =
        this.shared.factories[name] ??
        specialised[name] ??
        ((...a: Parameters<RepositoryFactory>) => new KyselyResourceRepository(...a))
      repo = factory(this.db, this.dialect, resource, this.shared.queries, this.peers, this.shared.today)
      this.repositories.set(name, repo)
    }
    return repo
  }

  async namesExisting(ref: FieldRef, names: readonly string[], { hold = false }: { readonly hold?: boolean } = {}): Promise<Set<string>> {
    if (names.length === 0) return new Set()
    const table = this.resources.get(ref)?.table ?? ref
    let q = anyTables(this.db).selectFrom(table).select('name').where('name', 'in', [...new Set(names)])
    // SQLite serialises writers, so a check made in the writing transaction already holds.
    if (hold && this.dialect.rowLocks) q = q.orderBy('id').forShare()
    const rows = await q.execute()
    return new Set(rows.map((r) => r.name as string))
  }

  async tariffNames(ref: FieldRef): Promise<string[]> {
    const table = this.resources.get(ref)?.table ?? ref
    const rows = await anyTables(this.db).selectFrom(table).select('name').where('name', 'is not', null).orderBy('name').execute()
    return rows.map((r) => r.name as string)
  }

  /** Every stored field that names a tariff of the given kind, by resource. */
  private referencingFields(ref: FieldRef): { resource: Resource; fields: string[] }[] {
    return [...this.resources.values()]
      .map((resource) => ({ resource, fields: resource.columns.filter((f) => f.ref === ref).map((f) => f.name) }))
      .filter((x) => x.fields.length > 0)
  }

  async findReference(ref: FieldRef, name: string): Promise<string | null> {
    for (const { resource, fields } of this.referencingFields(ref)) {
      const row = await anyTables(this.db)
        .selectFrom(resource.table)
        .select(['id', ...fields])
        .where((eb) => eb.or(fields.map((f) => eb(f, '=', name))))
        .orderBy('id')
        .executeTakeFirst()
      if (row) {
        const field = fields.find((f) => row[f] === name)
        return `${resource.singular} ${row.id} (${field})`
      }
    }
    return null
  }

  async lockReferences(ref: FieldRef, name: string): Promise<void> {
    if (!this.dialect.rowLocks) return
    // The catalogue lists customers before numbers, services and features: parents first, as every writer locks them.
    for (const { resource, fields } of this.referencingFields(ref)) {
      await anyTables(this.db)
        .selectFrom(resource.table)
        .select('id')
        .where((eb) => eb.or(fields.map((f) => eb(f, '=', name))))
        .orderBy('id')
        .forUpdate()
        .execute()
    }
  }

  async renameReferences(ref: FieldRef, from: string, to: string): Promise<void> {
    for (const { resource, fields } of this.referencingFields(ref)) {
      for (const f of fields) await anyTables(this.db).updateTable(resource.table).set({ [f]: to }).where(f, '=', from).execute()
    }
  }

  transaction<T>(work: (store: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this)
    return this.committed(this.db.transaction().execute((trx) => work(this.within(trx))))
  }

  async insertRecorded<N extends ResourceName>(name: N, values: Values, record: (created: Item) => RecordedChanges): Promise<Entity<N>> {
    if (!this.inTransaction) {
      const created = await this.repositoryOf(name).insertRecorded(values, record, this.shared.actor())
      if (created) {
        await this.shared.statistics.refresh(this.db)
        return created as Entity<N>
      }
    }
    return this.transaction(async (store) => {
      const created = await (store.repository(name) as unknown as ResourceRepository).insert(values)
      const { entries, events } = record(created)
      if (entries.length || events.length) await store.changes.append(entries, events)
      return created as Entity<N>
    })
  }

  bulkTransaction<T>(work: (store: Store) => Promise<T>): Promise<T> {
    const bulk = this.bulkWrites
    if (!bulk || this.inTransaction) return this.transaction(work)
    return this.committed(bulk((trx, writeAhead) => work(this.within(trx, writeAhead))))
  }

  pipelinedTransaction<T>(work: (store: Store, reads: Store) => Promise<T>): Promise<T> {
    const pipelined = this.pipelinedWrites
    const reads = this.readsBeside
    if (!reads || this.inTransaction) return this.transaction((store) => work(store, store))
    // Marked as within a transaction: the reads store opens none of its own and leaves the planner's statistics to the commit.
    // A SQLite file (or an embedder's Postgres pool, which pipelines nothing): written on this
    // connection (on a SQLite file's writes thread, copying a run's rows there cost more than the
    // overlap gained), the run's pages read beside it (SQLite: on its reads thread, which reads
    // the next page while this thread writes), and the rest of the reads here, where they wait
    // for nothing (on the thread each was a round trip).
    if (!pipelined) return this.committed(this.db.transaction().execute((trx) => work(this.within(trx), this.within(trx, undefined, reads))))
    return this.committed(pipelined((trx, writeAhead) => work(this.within(trx, writeAhead), new KyselyStore(reads, this.dialect, this.resources, {}, true, this.shared))))
  }

  async rehearse<T>(work: (store: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) throw new Error('rehearse() opens its own transaction')
    const undo = new Rehearsed<T>()
    try {
      await this.db.transaction().execute(async (trx) => {
        // Statistics of its own, dropped with it: undone rows must not hasten an ANALYZE.
        const shared = { ...this.shared, statistics: new PlannerStatistics(null) }
        undo.result = await work(new KyselyStore(trx, this.dialect, this.resources, {}, true, shared))
        throw undo
      })
    } catch (error) {
      if (error !== undo) throw error
    }
    return undo.result!
  }

  /** The store of a transaction on `trx`; a bulk or pipelined transaction sends writes ahead with `writeAhead`. */
  private within(trx: Db, writeAhead?: WriteAhead, pagesBeside?: Db): Store {
    return new KyselyStore(trx, this.dialect, this.resources, { pagesBeside }, true, this.shared, writeAhead)
  }

  /** Statistics are looked at once a transaction's writes commit. */
  private async committed<T>(transaction: Promise<T>): Promise<T> {
    const result = await transaction
    await this.shared.statistics.refresh(this.db)
    return result
  }

  async lock(key: string): Promise<void> {
    if (!this.inTransaction) throw new Error('lock() needs a transaction')
    await this.dialect.lockKey(this.db, key)
  }
}
