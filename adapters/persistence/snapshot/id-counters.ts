import type { Cell } from './export-snapshot.js'

/**
 * The snapshot's record of each table's `id` counter, kept beside the tables (as `id-counters.csv`
 * in an archive): the last ID each generator gave out, which the rows alone do not tell once the
 * newest were deleted. Not a table; no table's name has a hyphen.
 */
export const ID_COUNTERS = 'id-counters'

export const ID_COUNTER_COLUMNS: readonly string[] = ['table', 'lastId']

/** The counters as rows by table name (SQLite's sqlite_sequence and Postgres's sequences alike). */
export function idCounterRows(counters: ReadonlyMap<string, bigint>): Cell[][] {
  return [...counters].sort(([a], [b]) => (a < b ? -1 : 1)).map(([table, lastId]) => [table, lastId.toString()])
}

/** Reads the counters back; an archive written before they were kept has none (empty map). */
export async function readIdCounterRecords(records: AsyncIterable<readonly Cell[]> | undefined): Promise<Map<string, bigint>> {
  const counters = new Map<string, bigint>()
  if (!records) return counters
  let header: readonly Cell[] | null = null
  for await (const record of records) {
    if (!header) {
      header = record
      if (ID_COUNTER_COLUMNS.some((c, i) => header![i] !== c)) throw new Error(`${ID_COUNTERS}: the header is not ${ID_COUNTER_COLUMNS.join(',')}`)
      continue
    }
    const [table, lastId] = record
    if (!table || !lastId || !/^\d+$/.test(lastId)) throw new Error(`${ID_COUNTERS}: not a table and its last ID: ${record.join(',')}`)
    counters.set(table, BigInt(lastId))
  }
  return counters
}
