import { sql } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { ZERO, type Money } from '../../../core/money/money.js'
import type { AutoTopups, TopupCandidate } from '../../../core/ports/auto-topups.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { moneyColumn } from '../money-column.js'
import type { Db } from '../schema/tables.js'
import { unbilledCallCosts } from './kysely-credit-control.js'

const CHUNK = 500

/** Automatic top-ups on the `customers`, `transactions` and `calls` tables. */
export class KyselyAutoTopups implements AutoTopups {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async candidates(profiles: readonly string[], afterID: string, limit: number): Promise<TopupCandidate[]> {
    // Each side on its partial index (migration 0080): a customer without a profile or a request is never read.
    const rows = await this.db
      .selectFrom('customers')
      .select(['id', 'autoTopupProfile', 'autoTopupAmount', 'autoTopupRequestedDate', 'isDropped', 'isFinalBill'])
      .where((eb) => {
        const requested = eb('autoTopupRequestedDate', 'is not', null)
        if (profiles.length === 0) return requested
        return eb.or([eb.and([eb('autoTopupProfile', 'in', profiles), eb('isDropped', '=', 0), eb('isFinalBill', '=', 0)]), requested])
      })
      .where('id', '>', this.dialect.encodeId(afterID))
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map((r) => ({
      id: String(r.id),
      autoTopupProfile: r.autoTopupProfile ?? null,
      autoTopupAmount: r.autoTopupAmount === null || r.autoTopupAmount === undefined ? null : moneyColumn(this.dialect, r.autoTopupAmount),
      autoTopupRequestedDate: (r.autoTopupRequestedDate ?? null) as DateOnly | null,
      closed: Number(r.isDropped) === 1 || Number(r.isFinalBill) === 1,
    }))
  }

  async funds(customerIDs: readonly string[]): Promise<Map<string, Money>> {
    const out = new Map<string, Money>(customerIDs.map((id) => [id, ZERO]))
    const less = (rows: readonly { customerID: unknown; total: unknown }[]) => {
      for (const r of rows) {
        const id = String(r.customerID)
        out.set(id, (out.get(id)! - moneyColumn(this.dialect, r.total ?? 0)) as Money)
      }
    }
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      // The balance as the customer's `balance` reads it (kysely-customer-repository.ts).
      less(
        await this.db
          .selectFrom('transactions')
          .select(['customerID', sql<string>`coalesce(sum(amount), 0) + coalesce(sum(${sql.ref('VATAmount')}), 0)`.as('total')])
          .where('customerID', 'in', ids)
          .groupBy('customerID')
          .execute(),
      )
      less(await unbilledCallCosts(this.db, ids).execute())
    }
    return out
  }
}
