import { randomUUID } from 'node:crypto'
import type { Db } from '../schema/tables.js'
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../../core/ports/idempotency-store.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/** Rows a purge statement deletes at most. */
const PURGE_BATCH = 1000

/**
 * Idempotency records as rows keyed by (scope, key); the primary key arbitrates racing retries,
 * and a conditional update the takeover of a lapsed claim (one request wins it).
 */
export class KyselyIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async claim(scope: string, key: string, fingerprint: string, nowMs: number, ttlMs: number, leaseMs: number): Promise<IdempotencyClaim> {
    const big = (ms: number) => this.dialect.encodeBigint(BigInt(ms))
    // An expired record no longer binds the key.
    await this.db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).where('createdAt', '<', big(nowMs - ttlMs)).execute()
    const owner = randomUUID()
    try {
      await this.db
        .insertInto('idempotency_keys')
        .values({ scope, key, fingerprint, createdAt: big(nowMs), owner, leaseUntil: big(nowMs + leaseMs) })
        .execute()
      return { kind: 'claimed', owner }
    } catch (error) {
      if (!this.dialect.uniqueViolation(error)) throw error
    }
    // A claim without a response whose lease lapsed: its request died; this one runs instead.
    const taken = await this.db
      .updateTable('idempotency_keys')
      .set({ fingerprint, createdAt: big(nowMs), owner, leaseUntil: big(nowMs + leaseMs) })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('status', 'is', null)
      .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<', big(nowMs))]))
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed', owner }
    const row = await this.db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst()
    // Gone between the two (abandoned): the caller asks again.
    if (!row) return { kind: 'taken', fingerprint, response: null }
    const response = row.status === null || row.status === undefined ? null : { status: Number(row.status), headers: JSON.parse(row.headers as string), body: row.body as string }
    return { kind: 'taken', fingerprint: row.fingerprint, response }
  }

  async renew(scope: string, key: string, owner: string, untilMs: number): Promise<boolean> {
    const r = await this.db
      .updateTable('idempotency_keys')
      .set({ leaseUntil: this.dialect.encodeBigint(BigInt(untilMs)) })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('owner', '=', owner)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  async complete(scope: string, key: string, owner: string, fingerprint: string, response: StoredResponse): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ fingerprint, status: response.status, headers: JSON.stringify(response.headers), body: response.body, owner: null, leaseUntil: null })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('owner', '=', owner)
      .execute()
  }

  async abandon(scope: string, key: string, owner: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).where('owner', '=', owner).execute()
  }

  async removeBefore(beforeMs: number, batch = PURGE_BATCH, signal?: AbortSignal): Promise<number> {
    const before = this.dialect.encodeBigint(BigInt(beforeMs))
    let removed = 0
    for (;;) {
      // One batch a statement, found on idempotency_keys_created_idx (migration 0082).
      const r = await this.db
        .deleteFrom('idempotency_keys')
        .where(({ eb, refTuple, selectFrom }) =>
          eb(refTuple('scope', 'key'), 'in', selectFrom('idempotency_keys').select(['scope', 'key']).where('createdAt', '<', before).limit(batch).$asTuple('scope', 'key')),
        )
        .executeTakeFirst()
      const n = Number(r.numDeletedRows)
      removed += n
      if (n < batch || signal?.aborted) return removed
    }
  }
}
