import { suite, type Test } from 'uvu'
import type { Database } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { exportSnapshot, type Cell } from '../../adapters/persistence/snapshot/export-snapshot.js'
import { importSnapshot, type ImportSummary, type SnapshotSource } from '../../adapters/persistence/snapshot/import-snapshot.js'
import { connectBare, openTarget, type Target, type TargetName } from './targets.js'

/** What a test of a migration on stored data works on: a target and its database, not migrated. */
export interface BareDatabase {
  target: Target
  database: Database
}

/**
 * A suite whose every test has a database of its own with no migration run: a migration's test
 * migrates it to the one before, stores rows as they were then, and migrates on.
 */
export function bareDatabaseSuite(title: string, name: TargetName): Test<BareDatabase> {
  const test = suite<BareDatabase>(title)
  test.before.each(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = await connectBare(ctx.target)
  })
  test.after.each(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })
  return test
}

/** Every table of `database` as a disaster-recovery archive holds it: its column names, then its rows. */
export async function exportedTables(database: Database): Promise<{ table: string; records: Cell[][] }[]> {
  const tables: { table: string; records: Cell[][] }[] = []
  await exportSnapshot(database, async ({ table, columns, batches }) => {
    const records: Cell[][] = [[...columns]]
    for await (const batch of batches) records.push(...batch)
    tables.push({ table, records })
  })
  return tables
}

/**
 * `tables` (an archive an older release wrote, `exportedTables`) restored into a new database of
 * the target at the latest schema, as a later release restores it (docs/restore.md): `read` is
 * given the restored database and the restore's summary while it is open.
 */
export async function restoredArchive<T>(name: TargetName, tables: { table: string; records: Cell[][] }[], read: (restored: Database, summary: ImportSummary) => Promise<T>): Promise<T> {
  const to = openTarget(name)
  const restored = await connectBare(to)
  try {
    await migrate(restored, to.schema)
    const sources: SnapshotSource[] = tables.map(({ table, records }) => ({ table, records: async function* () { yield* records } }))
    return await read(restored, await importSnapshot(restored, sources))
  } finally {
    await restored.close()
    await to.dispose()
  }
}
