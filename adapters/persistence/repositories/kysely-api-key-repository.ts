import type { Selectable } from 'kysely'
import { CompiledQueries } from '../compiled-queries.js'
import { RecentKeys } from './recent-keys.js'
import type { ApiKeysTable, Db } from '../schema/tables.js'
import type { ApiKey, ApiKeyRepository, Permission } from '../../../core/ports/api-key-repository.js'

type Row = Selectable<ApiKeysTable>

const toKey = (r: Row): ApiKey & { keyHash: string } => ({
  id: String(r.id),
  name: r.name,
  keyHash: r.keyHash,
  expertLevel: Number(r.expertLevel),
  permissions: JSON.parse(r.permissions) as Permission[],
  createdStamp: r.createdStamp,
  revokedStamp: r.revokedStamp,
})

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: Db,
    private readonly queries = new CompiledQueries(),
    private readonly recent = new RecentKeys(0),
  ) {}

  /** Every authenticated request looks its key up: recent answers are kept, the query compiled once. */
  async findByHash(keyHash: string) {
    const kept = this.recent.get(keyHash)
    if (kept) return kept
    const [row] = await this.queries.rows<Row>(this.db, 'api key by hash', () => this.db.selectFrom('api_keys').selectAll().where('keyHash', '=', keyHash), [keyHash])
    const key = row ? toKey(row) : undefined
    if (key) this.recent.remember(key)
    return key
  }

  async insert(key: Omit<ApiKey, 'id' | 'revokedStamp'> & { keyHash: string }): Promise<ApiKey> {
    await this.db
      .insertInto('api_keys')
      .values({ ...key, permissions: JSON.stringify(key.permissions), revokedStamp: null })
      .execute()
    const { keyHash: _, ...stored } = (await this.findByHash(key.keyHash))!
    return stored
  }

  async list(): Promise<ApiKey[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('id').execute()
    return rows.map((r) => {
      const { keyHash: _, ...key } = toKey(r)
      return key
    })
  }

  async revoke(name: string, stamp: string): Promise<boolean> {
    this.recent.clear()
    const r = await this.db
      .updateTable('api_keys')
      .set({ revokedStamp: stamp })
      .where('name', '=', name)
      .where('revokedStamp', 'is', null)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  async count(): Promise<number> {
    const r = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    return Number(r.n)
  }
}
