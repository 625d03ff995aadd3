import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * A number's call VAT rate (contract 17.7): the calls no feature priced bill at it before the
 * customer's. Existing numbers have none, so their calls keep the customer's rate.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.numbers, [...laterColumns['0026-number-call-vat'].numbers!])
}
