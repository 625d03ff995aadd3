import type { AnyDb } from '../schema/tables.js'
import { disasterRecoveryFiles } from '../../../core/fields/disaster-recovery-files.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { createResourceTable } from '../schema/columns.js'

/** Metadata of the disaster-recovery archives (contract 8); the archives themselves are files. */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await createResourceTable(db, dialect, disasterRecoveryFiles)
  // The list and the expiry job select by expiry date.
  await db.schema
    .createIndex(`${disasterRecoveryFiles.table}_expiresDate_idx`)
    .on(disasterRecoveryFiles.table)
    .column('expiresDate')
    .execute()
}
