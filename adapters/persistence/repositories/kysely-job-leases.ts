import type { Db } from '../schema/tables.js'
import type { JobLeases } from '../../../core/ports/job-leases.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * Leases as rows: taking one is a single conditional UPDATE of an expired row (or an INSERT
 * that loses to a concurrent one on the primary key), so two holders can never both hold a
 * lease, and a holder cannot take one it holds again.
 */
export class KyselyJobLeases implements JobLeases {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
    private readonly now: () => number = Date.now,
  ) {}

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = this.now()
    const expiresAt = this.dialect.encodeBigint(BigInt(now + ttlMs))
    const taken = await this.db
      .updateTable('job_leases')
      .set({ holder, expiresAt })
      .where('name', '=', name)
      .where('expiresAt', '<', this.dialect.encodeBigint(BigInt(now)))
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) === 1) return true
    try {
      await this.db.insertInto('job_leases').values({ name, holder, expiresAt }).execute()
      return true
    } catch (error) {
      if (this.dialect.uniqueViolation(error)) return false
      throw error
    }
  }

  async renew(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const r = await this.db
      .updateTable('job_leases')
      .set({ expiresAt: this.dialect.encodeBigint(BigInt(this.now() + ttlMs)) })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  async release(name: string, holder: string): Promise<void> {
    await this.db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute()
  }
}
