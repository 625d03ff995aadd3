import type { AnyDb } from '../schema/tables.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { CompiledQuery, sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import { fromUnits, type Money } from '../../../core/money/money.js'
import { BillingError } from '../../../core/errors.js'
import type { Item, Values } from '../../../core/fields/item.js'
import type { Resource, ResourceName } from '../../../core/fields/resource.js'
import { isIdList, type Condition, type ListQuery, type ParentQuery, type Parents, type ResourceRepository } from '../../../core/ports/resource-repository.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { selectedColumns, type SelectedColumns } from '../selected-columns.js'
import type { CompiledQueries } from '../compiled-queries.js'
import { isOneOf, ListConditions } from './list-conditions.js'
import { RowCodec } from '../row-codec.js'
import type { Actor } from '../../../core/ports/change-log.js'
import type { RecordedChanges } from '../../../core/ports/store.js'
import { ID_STAND_IN, recordedInsertQuery } from './recorded-insert.js'

/** The repositories of the other resources of the same store (parents given as queries are theirs to write). */
export type Peers = (name: ResourceName) => KyselyResourceRepository

/** A list's conditions and paging, applied to a query of its table. */
export type PageOf = (q: SelectQueryBuilder<any, any, any>) => SelectQueryBuilder<any, any, any>

/** Today's date, as the platform's clock tells it (what is overdue is read against it). */
export type Today = () => DateOnly

/** The system date in UTC, where no clock is given (a store opened by itself). */
export const systemToday: Today = () => new Date().toISOString().slice(0, 10) as DateOnly

/** One Kysely repository for any catalogued resource, on every dialect. */
export class KyselyResourceRepository implements ResourceRepository {
  protected readonly codec: RowCodec
  readonly conditions: ListConditions

  constructor(
    protected readonly db: AnyDb,
    protected readonly dialect: DatabaseDialect,
    readonly resource: Resource,
    protected readonly queries: CompiledQueries,
    protected readonly peers: Peers,
    protected readonly today: Today = systemToday,
  ) {
    this.codec = new RowCodec(resource, dialect)
    this.conditions = new ListConditions(resource, this.codec, dialect, (name) => this.computedSql()?.[name])
  }

  protected get table(): string {
    return this.resource.table
  }

  /** The select every read goes through; subclasses add computed columns unless `storedOnly`. */
  protected select(_storedOnly = false): SelectQueryBuilder<any, any, any> {
    return this.db.selectFrom(this.table).selectAll()
  }

  /**
   * The SQL of the resource's computed fields, for the JSON the database writes (KyselyListJson);
   * null when `finish` computes them in JavaScript (a feature's ledger figures), and lists build items.
   */
  computedSql(): Record<string, RawBuilder<unknown>> | null {
    return this.resource.fields.some((f) => f.computed) ? null : {}
  }

  /**
   * What the SQL of `computedSql` and `listJsonOverrides` depends on besides the resource (today,
   * for what is overdue): statements compiled once are kept under it, so a new day compiles anew.
   */
  computedKey(): string {
    return ''
  }

  /**
   * What a list's items are read by: `page` applied to `select()` (`storedOnly`: the stored
   * columns). Calls read the page first and derive their computed field for the page at once
   * (kysely-call-repository.ts).
   */
  protected listQuery(page: PageOf, storedOnly = false): SelectQueryBuilder<any, any, any> {
    return page(this.select(storedOnly))
  }

  /**
   * What a list whose JSON the database writes (KyselyListJson) selects from, with nothing
   * selected yet: `page` applied to the table; `listJsonComputed` is the SQL of the computed
   * fields over it.
   */
  listJsonFrom(page: PageOf): SelectQueryBuilder<any, any, any> {
    return page(this.db.selectFrom(this.table))
  }

  /**
   * What a read of this collection waits for first, or null for nothing (every collection but
   * the events feed, kysely-event-repository.ts). `get`, `list` and `listIn` of a repository that
   * has some wait for it themselves; KyselyListJson, which reads beside them, calls it.
   */
  beforeRead(): Promise<void> | null {
    return null
  }

  /** The SQL of the computed fields over `listJsonFrom` (by default `computedSql`'s). */
  listJsonComputed(): Record<string, RawBuilder<unknown>> | null {
    return this.computedSql()
  }

  /** Stored fields whose list JSON the database writes from an expression instead of the column (none by default). */
  listJsonOverrides(): Record<string, RawBuilder<unknown>> {
    return {}
  }

  /** `column` is one of the parents' IDs: listed, or a subquery the parents' own repository writes. */
  whereIn<Q extends SelectQueryBuilder<any, any, any>>(q: Q, column: string, parents: Parents): Q {
    const col = `${this.table}.${column}`
    if (!isIdList(parents)) return q.where(col, 'in', this.peers(parents.resource).selectParents(parents)) as Q
    const ids = parents.map((id) => this.dialect.encodeId(id))
    return q.where((eb: any) => isOneOf(this.dialect, eb, col, ids)) as Q
  }

  /** The IDs of this resource's rows that `parents` finds, as a subquery. */
  selectParents(parents: ParentQuery): SelectQueryBuilder<any, any, any> {
    const q = this.conditions.apply(this.db.selectFrom(this.table).select(`${this.table}.id`), 'page' in parents ? parents.page.where : parents.where)
    return 'page' in parents ? this.conditions.paged(q, parents.page) : this.whereIn(q, parents.column, parents.parents)
  }

  /** Adds computed fields to items read (a customer's balance, a feature's ledger figures). */
  protected async finish(items: Item[]): Promise<Item[]> {
    return items
  }

  private async finishOne(row: Record<string, unknown> | undefined): Promise<Item | undefined> {
    return row ? (await this.finish([this.codec.decode(row)]))[0] : undefined
  }

  /**
   * One item by ID: the read every GET of an item makes, so its query is compiled once, and its
   * stored columns are selected packed into one value where the dialect packs them (see
   * `ReadsDialect.packedRow`), computed ones beside it.
   */
  async get(id: string): Promise<Item | undefined> {
    if (!isId(id)) return undefined
    const encoded = this.dialect.encodeId(id)
    const read = this.oneRow()
    const build = () => {
      let q = this.db.selectFrom(this.table).select(read.select)
      for (const [name, expression] of Object.entries(this.computedSql() ?? {})) q = q.select(expression.as(name))
      return q.where(`${this.table}.id`, '=', encoded)
    }
    const [row] = await this.queries.rows(this.db, `get ${this.table}${this.computedKey()}`, build, [encoded])
    return row ? (await this.finish([read.decode(row)]))[0] : undefined
  }

  /** What `get` selects and decodes, made once per resource and dialect (repositories are made per transaction). */
  private oneRow(): SelectedColumns {
    let byDialect = oneRows.get(this.resource)
    if (!byDialect) oneRows.set(this.resource, (byDialect = new WeakMap()))
    let read = byDialect.get(this.dialect)
    if (!read) {
      const columns = this.resource.columns
      byDialect.set(this.dialect, (read = selectedColumns(this.table, columns, this.dialect.packedRow(this.table, columns), this.codec)))
    }
    return read
  }

  async getForUpdate(id: string): Promise<Item | undefined> {
    if (!isId(id)) return undefined
    let q = this.select().where(`${this.table}.id`, '=', this.dialect.encodeId(id))
    if (this.dialect.rowLocks) q = q.forUpdate(this.table)
    return this.finishOne(await q.executeTakeFirst())
  }

  async list(query: ListQuery): Promise<Item[]> {
    const q = this.listQuery((q) => this.conditions.paged(this.conditions.apply(q, query.where), query), query.storedOnly)
    const items = (await q.execute()).map((r) => this.codec.decode(r))
    return query.storedOnly ? items : this.finish(items)
  }

  async listIn(column: string, parents: Parents, where: readonly Condition[] = [], options: { readonly storedOnly?: boolean } = {}): Promise<Item[]> {
    if (isIdList(parents) && parents.length === 0) return []
    const q = this.listQuery((q) => this.whereIn(this.conditions.apply(q, where), column, parents), options.storedOnly)
    const items = (await q.orderBy(`${this.table}.id`).execute()).map((r) => this.codec.decode(r))
    return options.storedOnly ? items : this.finish(items)
  }

  /**
   * The row as stored comes back from the insert itself: no second statement to read it; where
   * it is known before the insert (`knownBeforeInsert`), only its ID does, and the row is the
   * one sent (a customer's 150 columns were about a twentieth of a create's CPU on SQLite to
   * return and decode). The SQL is written here rather than built with Kysely's query nodes,
   * which cost more than the rest of a create's own work (bench/create-customers.ts); a body
   * with the same fields gives the same text, so SQLite's statement cache prepares it once.
   */
  async insert(values: Values): Promise<Item> {
    const row = this.codec.encode(this.insertValues(values))
    const names = Object.keys(row)
    const known = this.knownBeforeInsert
    const returning = known ? 'returning "id"' : 'returning *'
    const text = names.length
      ? `insert into ${quote(this.table)} (${names.map(quote).join(', ')}) values (${names.map((_, i) => this.dialect.placeholder(i + 1)).join(', ')}) ${returning}`
      : `insert into ${quote(this.table)} default values ${returning}`
    const result = await this.translate(() => this.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, names.map((n) => row[n]))))
    const stored = known ? this.codec.storedAs(row, String(result.rows[0].id)) : this.codec.decode(result.rows[0])
    return this.finishInserted(stored)
  }

  /** Computed fields of an item just inserted (subclasses whose select computes them say what they are). */
  protected async finishInserted(item: Item): Promise<Item> {
    return (await this.finish([item]))[0]
  }

  /** The values an insert writes: `values` over the collection's own (a new customer's empty alerts). */
  protected insertValues(values: Values): Values {
    return values
  }

  /**
   * Whether an item inserted is known without reading it back: its row as sent (`RowCodec.storedAs`)
   * and computed fields that `finishInserted` tells without the database. Only then can its
   * history and events be written before the insert (`insertRecorded`), and its insert return
   * no more than its ID (`insert`).
   */
  protected get knownBeforeInsert(): boolean {
    return false
  }

  /**
   * `values` inserted with the history entries and events `record` gives for the item, as one
   * statement (recorded-insert.ts), which commits alone; the item stored. Null, with nothing
   * written, where the item cannot be known before its insert or the database takes no such
   * statement (SQLite): the caller inserts in a transaction.
   */
  async insertRecorded(values: Values, record: (created: Item) => RecordedChanges, actor: Actor): Promise<Item | null> {
    if (!this.knownBeforeInsert || !this.dialect.insertsInWith) return null
    const row = this.codec.encode(this.insertValues(values))
    const item = await this.finishInserted(this.codec.storedAs(row, ID_STAND_IN))
    const query = recordedInsertQuery(this.dialect, this.table, row, record(item), actor)
    const result = await this.translate(() => this.db.executeQuery<{ id: string }>(query))
    return { ...item, id: result.rows[0].id }
  }

  /**
   * The row as stored after the update comes back from the update itself (`returning`, with the
   * computed columns the select would add): no statement to read it again.
   */
  async update(id: string, values: Values): Promise<Item | undefined> {
    const row = this.codec.encode(values)
    if (Object.keys(row).length === 0) return this.get(id)
    let q = this.db.updateTable(this.table).set(row).where('id', '=', this.dialect.encodeId(id)).returningAll()
    for (const [name, expression] of Object.entries(this.computedSql() ?? {})) q = q.returning(expression.as(name))
    return this.finishOne(await this.translate(() => q.executeTakeFirst()))
  }

  async remove(id: string): Promise<boolean> {
    if (!isId(id)) return false
    const r = await this.db.deleteFrom(this.table).where('id', '=', this.dialect.encodeId(id)).executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }

  async lockIds(ids: readonly string[]): Promise<void> {
    if (!this.dialect.rowLocks || ids.length === 0) return
    const sorted = [...ids].map((i) => BigInt(i)).sort((a, b) => (a < b ? -1 : 1))
    await this.db
      .selectFrom(this.table)
      .select('id')
      .where('id', 'in', sorted.map((i) => this.dialect.encodeBigint(i)))
      .orderBy('id')
      .forUpdate()
      .execute()
  }

  async removeWhere(where: readonly Condition[]): Promise<number> {
    let q = this.db.deleteFrom(this.table) as any
    q = this.conditions.apply(q, where)
    const r = await q.executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  async updateWhere(where: readonly Condition[], values: Values): Promise<number> {
    const row = this.codec.encode(values)
    if (Object.keys(row).length === 0) return 0
    let q = this.db.updateTable(this.table).set(row) as any
    q = this.conditions.apply(q, where)
    const r = await this.translate(() => q.executeTakeFirst() as Promise<{ numUpdatedRows: bigint }>)
    return Number(r.numUpdatedRows)
  }

  async sum(column: string, where: readonly Condition[]): Promise<Money> {
    const total = sql<unknown>`coalesce(sum(${sql.ref(`${this.table}.${column}`)}), 0)`.as('total')
    const row = await this.conditions.apply(this.db.selectFrom(this.table).select(total), where).executeTakeFirst()
    return fromUnits(this.dialect.decodeBigint(row?.total ?? 0))
  }

  /** Turns a unique-constraint violation into the domain's `unique_taken`. */
  protected async translate<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      const violation = this.dialect.uniqueViolation(error)
      if (!violation) throw error
      // A unique key over several columns lists its scope first and the value taken last
      // (destinations: destinationTableID, prefix): the field to name is the last.
      const column = violation.columns.at(-1) ?? 'a unique field'
      const scope = violation.columns.slice(0, -1)
      throw new BillingError(
        'unique_taken',
        `${this.resource.singular} ${column} is already taken`,
        `Choose another ${column}; it must be unique among ${this.resource.name}${scope.length ? ` of the same ${scope.join(', ')}` : ''}.`,
      )
    }
  }
}

const oneRows = new WeakMap<Resource, WeakMap<DatabaseDialect, SelectedColumns>>()

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

export const isId = (id: string): boolean => /^[1-9]\d{0,15}$/.test(id)
