import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns, createResourceTable } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Payment links and what providers report back (contract 15.1): the links generated, the
 * customer's Direct Debit mandate, and the provider's reference on the payment it reported.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await createResourceTable(db, dialect, catalogue.paymentLinks)
  await db.schema.createIndex('payment_links_customer_idx').on('payment_links').columns(['customerID', 'status']).execute()
  const added = laterColumns['0028-payment-links']
  await addColumns(db, dialect, catalogue.customers, [...added.customers!])
  await addColumns(db, dialect, catalogue.transactions, [...added.transactions!])
  // The same payment reported twice, even at once, is one transaction: the second insert collides.
  await db.schema.createIndex('transactions_provider_reference_key').unique().on('transactions').column('providerReference').execute()
}
