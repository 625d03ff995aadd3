import type { SelectQueryBuilder } from 'kysely'
import type { Item } from '../../../core/fields/item.js'
import type { ResourceName } from '../../../core/fields/resource.js'
import { toWireJson } from '../../../core/fields/wire-json.js'
import type { ListJson, WireItem } from '../../../core/ports/list-json.js'
import { isIdList, type Condition, type ListQuery, type Parents } from '../../../core/ports/resource-repository.js'
import type { CompiledQueries } from '../compiled-queries.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { inIdOrder } from '../id-order.js'
import { isId, type KyselyResourceRepository, type PageOf, type Peers } from '../repositories/kysely-resource-repository.js'
import type { AnyDb } from '../schema/tables.js'
import { listJsonMembers, type WireSelect } from './list-json-dialect.js'

/** What a store and its transactions' stores share: each resource's select, made once (null: JavaScript computes some of its fields). */
export type ListJsonSelects = Map<string, WireSelect | null>

/**
 * The `ListJson` port: list pages whose JSON the database writes (list-json-dialect.ts), on the
 * repositories' conditions and paging. A resource with fields computed in JavaScript (a
 * feature's ledger figures) is listed as items and written by toWireJson.
 */
export class KyselyListJson implements ListJson {
  constructor(
    private readonly db: AnyDb,
    private readonly dialect: DatabaseDialect,
    private readonly queries: CompiledQueries,
    private readonly repositories: Peers,
    private readonly selects: ListJsonSelects,
  ) {}

  /**
   * The read of every GET of an item: compiled once, like the repositories' `get`, and its JSON
   * written by the database where the dialect says that is cheaper (`ReadsDialect.itemJson`),
   * so no row is decoded, rendered and encoded again here.
   */
  async get(name: ResourceName, id: string): Promise<WireItem | undefined> {
    const repo = this.repositories(name)
    const wire = this.dialect.itemJson ? this.wireSelect(repo) : null
    if (!wire) {
      const item = await repo.get(id)
      return item && wireItem(repo, item)
    }
    if (!isId(id)) return undefined
    await repo.beforeRead()
    const build = (key: unknown) => this.select(repo, wire, (q) => q.where(`${repo.resource.table}.id`, '=', key))
    const [row] = await this.queries.rowsByKey<{ w0: unknown }>(this.db, `get json ${repo.resource.table}${repo.computedKey()}`, build, this.dialect.encodeId(id))
    return row && { id, json: wire.assemble(row.w0) }
  }

  async list(name: ResourceName, query: ListQuery): Promise<WireItem[]> {
    const repo = this.repositories(name)
    const wire = this.wireSelect(repo)
    if (!wire) return (await repo.list(query)).map((i) => wireItem(repo, i))
    await repo.beforeRead()
    const rows = await this.select(repo, wire, (q) => repo.conditions.paged(repo.conditions.apply(q, query.where), query)).execute()
    return rows.map((r) => ({ id: String(r.id), json: wire.assemble(r.w0) }))
  }

  async listIn(name: ResourceName, column: string, parents: Parents, where: readonly Condition[] = []): Promise<WireItem[]> {
    const repo = this.repositories(name)
    const wire = this.wireSelect(repo)
    if (!wire) return (await repo.listIn(column, parents, where)).map((i) => wireItem(repo, i, column))
    if (isIdList(parents) && parents.length === 0) return []
    await repo.beforeRead()
    // Put in ID order here, not by the database: Postgres sorted a page's children with their
    // JSON on disk (beyond work_mem) and sent none before the last was made (bench/lists.ts).
    const rows = await this.select(repo, wire, (q) => repo.whereIn(repo.conditions.apply(q, where), column, parents), column).execute()
    return inIdOrder(rows.map((r) => ({ id: String(r.id), json: wire.assemble(r.w0), key: r.key === null ? null : String(r.key) })))
  }

  /** The ID, the column asked by (as `key`), and the JSON text (as `w0`), of the rows `page` finds. */
  private select(repo: KyselyResourceRepository, wire: WireSelect, page: PageOf, key?: string): SelectQueryBuilder<any, any, any> {
    const table = repo.resource.table
    // Compiled once: compiling a customer's members anew showed in every list request (bench/lists.ts).
    const json = this.queries.fragment(this.db, `list json ${table}${repo.computedKey()}`, () => wire.column)
    const q = repo.listJsonFrom(page).select([`${table}.id`, json.as('w0')])
    return key ? q.select(`${table}.${key} as key`) : q
  }

  private wireSelect(repo: KyselyResourceRepository): WireSelect | null {
    const name = `${repo.resource.name}${repo.computedKey()}`
    let wire = this.selects.get(name)
    if (wire === undefined) {
      const computed = repo.listJsonComputed()
      wire = computed && this.dialect.listJson(listJsonMembers(repo.resource, repo.resource.table, { ...computed, ...repo.listJsonOverrides() }))
      this.selects.set(name, wire)
    }
    return wire
  }
}

function wireItem(repo: KyselyResourceRepository, item: Item, key?: string): WireItem {
  const json = Buffer.from(toWireJson(repo.resource, item))
  return key ? { id: item.id, json, key: (item[key] as string | null) ?? null } : { id: item.id, json }
}
