import type { Db } from '../schema/tables.js'
import type { RowWriter } from '../dialect/bulk-rows.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

const CHUNK = 500

/**
 * The `ledger_reconciled` table (migration 0009): per feature, the mark of the inputs its
 * ledger was last reconciled with. Only the ledger adapter writes it, as it writes the rows.
 */
export class KyselyLedgerMarks {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** Drops the marks of features whose rows were written without a new mark, or that are deleted. */
  async drop(featureIDs: readonly string[]): Promise<void> {
    for (let i = 0; i < featureIDs.length; i += CHUNK) {
      const ids = featureIDs.slice(i, i + CHUNK).map((f) => this.dialect.encodeId(f))
      await this.db.deleteFrom('ledger_reconciled').where('featureID', 'in', ids).execute()
    }
  }

  /** Stores marks, replacing older ones (an upsert written once for both dialects). */
  async store(marks: ReadonlyMap<string, string>): Promise<void> {
    // Written from the map's keys and values, not an entry and a row array per mark (a run stores one per feature).
    const featureIDs = [...marks.keys()]
    const inputs = [...marks.values()]
    const rows: RowWriter = {
      length: featureIDs.length,
      write: (i, into, at) => {
        into[at] = this.dialect.encodeId(featureIDs[i])
        into[at + 1] = inputs[i]
      },
    }
    const columns = [
      { name: 'featureID', type: this.dialect.idRefType },
      { name: 'inputs', type: 'text' as const },
    ]
    await this.dialect.bulkInsert(this.db, 'ledger_reconciled', columns, rows, { onConflict: 'on conflict ("featureID") do update set "inputs" = excluded."inputs"' })
  }
}
