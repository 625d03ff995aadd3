import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Review runs (contract 16.1): a run's `review` flag. Draft invoices are invoices with status
 * `Draft` and their transactions stay unapproved on them: an approval finds a partition's
 * drafts by run and customer, which the unique (billingRunID, customerID) index already serves.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.billingRuns, [...laterColumns['0035-review-runs'].billingRuns!])
}
