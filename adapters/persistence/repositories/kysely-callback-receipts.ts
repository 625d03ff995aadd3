import type { Stamp } from '../../../core/dates/stamp.js'
import type { CallbackReceipts } from '../../../core/ports/callback-receipts.js'
import type { Db } from '../schema/tables.js'

/**
 * The receipts of migration 0064. `on conflict do nothing` on both databases: Postgres waits
 * for a concurrent insert of the same key to commit or roll back, then skips or inserts, and the
 * transaction is not aborted by a unique violation; SQLite has one writer at a time.
 */
export class KyselyCallbackReceipts implements CallbackReceipts {
  constructor(private readonly db: Db) {}

  async record(provider: string, webhookID: string, receivedStamp: Stamp): Promise<boolean> {
    const r = await this.db
      .insertInto('callback_receipts')
      .values({ provider, webhookID, receivedStamp })
      .onConflict((oc) => oc.columns(['provider', 'webhookID']).doNothing())
      .executeTakeFirst()
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0
  }

  async removeBefore(stamp: Stamp): Promise<number> {
    // callback_receipts_received_idx (migration 0069): only the rows that go are read.
    const r = await this.db.deleteFrom('callback_receipts').where('receivedStamp', '<', stamp).executeTakeFirst()
    return Number(r.numDeletedRows)
  }
}
