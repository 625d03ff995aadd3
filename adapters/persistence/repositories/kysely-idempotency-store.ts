import type { Db } from '../schema/tables.js'
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../../core/ports/idempotency-store.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/** Idempotency records as rows keyed by (scope, key); the primary key arbitrates racing retries. */
export class KyselyIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async claim(scope: string, key: string, fingerprint: string, nowMs: number, ttlMs: number): Promise<IdempotencyClaim> {
    // An expired record no longer binds the key.
    await this.db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('createdAt', '<', this.dialect.encodeBigint(BigInt(nowMs - ttlMs)))
      .execute()
    try {
      await this.db
        .insertInto('idempotency_keys')
        .values({ scope, key, fingerprint, createdAt: this.dialect.encodeBigint(BigInt(nowMs)) })
        .execute()
      return { kind: 'claimed' }
    } catch (error) {
      if (!this.dialect.uniqueViolation(error)) throw error
    }
    const row = await this.db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst()
    if (!row) return { kind: 'pending' }
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' }
    if (row.status === null || row.status === undefined) return { kind: 'pending' }
    return { kind: 'replay', response: { status: Number(row.status), headers: JSON.parse(row.headers as string), body: row.body as string } }
  }

  async complete(scope: string, key: string, response: StoredResponse): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status: response.status, headers: JSON.stringify(response.headers), body: response.body })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .execute()
  }

  async abandon(scope: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).execute()
  }
}
