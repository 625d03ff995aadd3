import { createReadStream } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../persistence/connect.js'
import { migrate } from '../persistence/migrations/migrations.js'
import { importSnapshot, type ImportSummary, type SnapshotSource } from '../persistence/snapshot/import-snapshot.js'
import { parseCsv } from './csv.js'
import { extractArchive } from './seven-zip.js'

export interface RestoreOptions {
  /** The encrypted 7z archive. */
  readonly archive: string
  readonly password: string
  /** The database to restore into: empty, migrated or not. */
  readonly database: Database
  /** Postgres schema of the database, as for `migrate`. */
  readonly schema?: string
  /** Where the decrypted CSV files live while they load (default: the system's temp directory). */
  readonly workDir?: string
}

/**
 * Restores a disaster-recovery archive: decrypts it into a private temporary directory,
 * migrates the database, loads every table's CSV in one transaction (see importSnapshot), and
 * deletes the decrypted files whatever happens.
 */
export async function restoreArchive(options: RestoreOptions): Promise<ImportSummary> {
  const work = await mkdtemp(join(options.workDir ?? tmpdir(), 'billing-restore-')) // mode 0700
  try {
    await extractArchive(options.archive, work, options.password)
    const sources: SnapshotSource[] = (await readdir(work))
      .filter((name) => name.endsWith('.csv'))
      .sort()
      .map((name) => ({
        table: name.slice(0, -'.csv'.length),
        records: () => parseCsv(createReadStream(join(work, name), { encoding: 'utf8' })),
      }))
    if (sources.length === 0) throw new Error('the archive holds no CSV files')
    await migrate(options.database, options.schema)
    return await importSnapshot(options.database, sources)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
