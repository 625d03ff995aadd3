import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * An invoice keeps the message it was raised with (contract 10.5): the customer's next message
 * is cleared once used, and its document must still print it. Invoices raised before have none.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.invoices, [...laterColumns['0016-invoice-messages'].invoices!])
}
