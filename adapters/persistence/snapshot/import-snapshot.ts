import type { AnyDb } from '../schema/tables.js'
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, sql } from 'kysely'
import type { Database } from '../connect.js'
import type { Cell } from './export-snapshot.js'
import { ID_COUNTERS, readIdCounterRecords } from './id-counters.js'
import { loadOrder } from './load-order.js'
import { movedColumns, type MovedColumn } from './moved-columns.js'
import { rebuildJournalLines } from '../repositories/invoice-journal-lines.js'
import { markOldCallKeys } from '../migrations/0066-old-call-keys.js'
import { claimIssuedCredits } from '../migrations/0068-commission-credits.js'
import { endReinstatedIgnores } from '../migrations/0070-reinstate-gaps.js'
import { keepCompletedRunsTerms } from '../migrations/0071-commission-terms.js'
import { fillLoginKeys } from '../migrations/0085-login-keys.js'
import { fillPaymentProviders } from '../migrations/0086-payment-providers.js'
import { dropOrphanMarks } from '../migrations/0077-orphan-marks.js'
import { markNumbersOver } from '../migrations/0083-numbers-over-credit-limit.js'
import { markSpeltCarrierKeys } from '../migrations/0087-carrier-keys.js'
import { markUnrecordedPricingFeatures } from '../migrations/0088-pricing-features.js'

/** One table of a snapshot to load (or its ID counters, named ID_COUNTERS): its records, the header (column names) first. */
export interface SnapshotSource {
  readonly table: string
  records(): AsyncIterable<readonly Cell[]>
}

export interface ImportSummary {
  /** Rows loaded per table, in load order. */
  readonly tables: { readonly table: string; readonly rows: number }[]
  /** Migrations this database has that the snapshot's database had not run (their new columns stay empty). */
  readonly newerMigrations: string[]
}

const migrationTables = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE])
/** Parameters per INSERT, below SQLite's and Postgres' limits. */
const PARAMS_PER_INSERT = 20_000

/**
 * Loads a snapshot into a migrated, empty database, all in one transaction: parents before
 * children (foreign keys), each table in batches, then each ID generator moved past the loaded
 * IDs and past the last ID it had given out (the snapshot's ID counters; a snapshot written
 * before they were kept has none, and the loaded IDs alone count). Refuses a database that
 * holds data, a snapshot from a newer schema, and unknown tables or columns. The migration tables are not loaded: the database's own say which schema it has.
 */
export async function importSnapshot(database: Database, sources: readonly SnapshotSource[]): Promise<ImportSummary> {
  const { db, dialect } = database
  const byTable = new Map(sources.map((s) => [s.table, s]))
  const idCounters = await readIdCounterRecords(byTable.get(ID_COUNTERS)?.records())
  byTable.delete(ID_COUNTERS)
  const newerMigrations = await checkMigrations(db, byTable.get(DEFAULT_MIGRATION_TABLE))
  const existing = await dialect.listTables(db)
  const unknown = [...byTable.keys()].filter((t) => !existing.includes(t))
  if (unknown.length) throw new Error(`the database has no table ${unknown.join(', ')}: restore with the version that wrote the archive`)
  const data = existing.filter((t) => !migrationTables.has(t))
  const filled: string[] = []
  for (const table of data) if (await anyRow(db, table)) filled.push(table)
  if (filled.length) throw new Error(`the database is not empty (${filled.join(', ')}): restore into an empty database`)
  const shapes = new Map(await Promise.all(data.map(async (t) => [t, await dialect.describeTable(db, t)] as const)))
  const order = loadOrder(data.filter((t) => byTable.has(t)), (t) => shapes.get(t)!.references)
  return db.transaction().execute(async (trx) => {
    const tables: ImportSummary['tables'] = []
    const moved: MovedRows = new Map()
    for (const table of order) {
      const rows = await loadTable(trx, byTable.get(table)!, shapes.get(table)!.columns, newerMigrations, moved)
      tables.push({ table, rows })
    }
    // An older archive's values of moved columns, where the tables keep them now (loaded after every table they point at).
    for (const [table, rows] of moved) {
      for (let i = 0; i < rows.length; i += 1000) await (trx as AnyDb).insertInto(table).values(rows.slice(i, i + 1000)).execute()
    }
    // Invoices' journal lines are written with them (migration 0060): an older archive has none.
    if (newerMigrations.includes('0060-invoice-journal')) await rebuildJournalLines(trx)
    // An older archive's calls are keyed as imports keyed them then (migration 0066).
    if (newerMigrations.includes('0066-old-call-keys')) await markOldCallKeys(trx as AnyDb)
    // An older archive's credit notes name no run whose commission statement claws them back (migration 0068).
    if (newerMigrations.includes('0068-commission-credits')) await claimIssuedCredits(trx as AnyDb)
    // An older archive's ignore-traffic entries of numbers reinstated since do not end (migration 0070).
    if (newerMigrations.includes('0070-reinstate-gaps')) await endReinstatedIgnores(trx as AnyDb)
    // An older archive keeps no commission terms for the runs it had completed (migration 0071).
    if (newerMigrations.includes('0071-commission-terms')) await keepCompletedRunsTerms(trx as AnyDb)
    // An older archive may hold the marks of features deleted before (migration 0077).
    if (newerMigrations.includes('0077-orphan-marks')) await dropOrphanMarks(trx as AnyDb)
    // An older archive marks no number over its limit: marked as its customers' alerts say (migration 0083).
    if (newerMigrations.includes('0083-numbers-over-credit-limit')) await markNumbersOver(trx as AnyDb)
    // An older archive has no logins' sign-in keys (migration 0085).
    if (newerMigrations.includes('0085-login-keys')) await fillLoginKeys(trx as AnyDb)
    // An older archive's payments do not say which provider reported them (migration 0086).
    if (newerMigrations.includes('0086-payment-providers')) await fillPaymentProviders(trx as AnyDb)
    // An older archive's calls are keyed by their carrier as spelt, and claim no key (migration 0087);
    // so are a SQLite archive's where calls are partitioned here: SQLite claims none (call-key-claims.ts).
    if (newerMigrations.includes('0087-carrier-keys') || (dialect.partitions && !(await anyRow(trx, 'external_call_keys')))) await markSpeltCarrierKeys(trx as AnyDb)
    // An older archive's calls do not record the feature that priced them (migration 0088).
    if (newerMigrations.includes('0088-pricing-features')) await markUnrecordedPricingFeatures(trx as AnyDb)
    for (const table of order) {
      if (shapes.get(table)!.columns.includes('id')) await dialect.resetIdSequence(trx, table, idCounters.get(table) ?? 0n)
    }
    return { tables, newerMigrations }
  })
}

const anyRow = (db: AnyDb, table: string): Promise<boolean> => sql`select 1 from ${sql.id(table)} limit 1`.execute(db).then((r) => r.rows.length > 0)

/** Rows for the tables that keep moved columns' values now, by table. */
type MovedRows = Map<string, Record<string, Cell>[]>

async function loadTable(trx: AnyDb, source: SnapshotSource, known: readonly string[], newerMigrations: readonly string[], moved: MovedRows): Promise<number> {
  let header: readonly string[] | null = null
  let batch: Record<string, Cell>[] = []
  let rows = 0
  let perInsert = 1
  // Columns of an archive from before the migration that took them out: set aside, not loaded.
  let aside: { at: number; into: MovedColumn['into'] }[] = []
  const flush = async () => {
    if (batch.length) await trx.insertInto(source.table).values(batch).execute()
    rows += batch.length
    batch = []
  }
  for await (const record of source.records()) {
    if (!header) {
      header = record.map((c) => c ?? '')
      const movedHere = movedColumns[source.table] ?? {}
      const isMoved = (c: string) => !known.includes(c) && newerMigrations.includes(movedHere[c]?.migration ?? '')
      aside = header.flatMap((c, at) => (isMoved(c) ? [{ at, into: movedHere[c].into }] : []))
      const unknown = header.filter((c) => !known.includes(c) && !isMoved(c))
      if (unknown.length) throw new Error(`${source.table}: the database has no column ${unknown.join(', ')}`)
      perInsert = Math.max(1, Math.floor(PARAMS_PER_INSERT / Math.max(1, header.length)))
      continue
    }
    if (record.length !== header.length) {
      throw new Error(`${source.table}: row ${rows + batch.length + 1} has ${record.length} fields, the header ${header.length}`)
    }
    const row: Record<string, Cell> = {}
    header.forEach((c, i) => (row[c] = record[i]))
    for (const { at, into } of aside) {
      delete row[header[at]]
      if (!into || record[at] === null || record[at] === into.skip) continue
      const rows = moved.get(into.table) ?? []
      moved.set(into.table, rows)
      rows.push({ [into.key]: row.id, [into.column]: record[at] })
    }
    batch.push(row)
    if (batch.length >= perInsert) await flush()
  }
  await flush()
  return rows
}

/** The snapshot's migrations must all be known here; returns those it had not run yet. */
async function checkMigrations(db: AnyDb, source: SnapshotSource | undefined): Promise<string[]> {
  const ours = (await db.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute()).map((r) => r.name as string)
  if (!source) return []
  const theirs: string[] = []
  let nameAt = -1
  for await (const record of source.records()) {
    if (nameAt < 0) nameAt = record.indexOf('name')
    else if (record[nameAt]) theirs.push(record[nameAt]!)
  }
  const unknown = theirs.filter((n) => !ours.includes(n))
  if (unknown.length) throw new Error(`the archive comes from a newer schema (migrations ${unknown.join(', ')}): restore with that version`)
  return ours.filter((n) => !theirs.includes(n))
}
