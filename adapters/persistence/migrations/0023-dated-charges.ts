import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Charges take effect when they say (contract 17.5, 17.6): a call tariff keeps the base prices an
 * increase raises from a later date until that date, and a feature the date its yearly increases
 * are counted from. Existing rows have neither.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0023-dated-charges']
  await addColumns(db, dialect, catalogue.tariffs, [...added.tariffs!])
  await addColumns(db, dialect, catalogue.features, [...added.features!])
}
