import type { Stamp } from '../../../core/dates/stamp.js'
import type { CustomerRemains } from '../../../core/ports/customer-remains.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { removeCarrierRemains } from './customer-carrier-remains.js'
import { removePortalRemains } from './customer-portal-remains.js'

/** The purge's share of migrations 0009, 0012, 0021, 0029, 0060, 0067 and 0071's tables (see `CustomerRemains`). */
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
  }
}
