import type { Stamp } from '../../../core/dates/stamp.js'
import type { CustomerRemains } from '../../../core/ports/customer-remains.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { removeCarrierRemains } from './customer-carrier-remains.js'
import { removePortalRemains } from './customer-portal-remains.js'

/** The purge's share of migrations 0009, 0012, 0021, 0029, 0060, 0067, 0071 and 0087's tables (see `CustomerRemains`). */
export class KyselyCustomerRemains implements CustomerRemains {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async removeCustomer(customerID: string, stamp: Stamp): Promise<void> {
    const id = this.dialect.encodeId(customerID)
    await removePortalRemains(this.db, this.dialect, customerID)
    await removeCarrierRemains(this.db, this.dialect, customerID, stamp)
    await this.db.deleteFrom('invoice_allocations').where('customerID', '=', id).execute()
    await this.db.deleteFrom('held_credits').where('customerID', '=', id).execute()
    await this.db.deleteFrom('commission_terms').where('customerID', '=', id).execute()
    await this.db
      .deleteFrom('invoice_journal_lines')
      .where('invoiceID', 'in', (q) => q.selectFrom('invoices').select('id').where('customerID', '=', id))
      .execute()
    await this.db
      .deleteFrom('ledger_reconciled')
      .where('featureID', 'in', (q) => q.selectFrom('features').select('id').where('customerID', '=', id))
      .execute()
    // Its calls go with its items; so do the keys their records claimed (migration 0087), or a
    // record sent again for the number's next holder would be a duplicate of nothing on Postgres,
    // where SQLite, keying a call by its own row, would store it.
    await this.db
      .deleteFrom('external_call_keys')
      .where('fingerprint', 'in', (q) => q.selectFrom('calls').select('fingerprint').where('customerID', '=', id))
      .execute()
  }
}
