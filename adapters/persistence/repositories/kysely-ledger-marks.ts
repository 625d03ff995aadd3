import { CompiledQuery, type Kysely } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'

const CHUNK = 500
/** Rows per upsert statement: two parameters each, far under every parameter limit. */
const PER_UPSERT = 5_000

/**
 * The `ledger_reconciled` table (migration 0009): per feature, the mark of the inputs its
 * ledger was last reconciled with. Only the ledger adapter writes it, as it writes the rows.
 */
export class KyselyLedgerMarks {
  constructor(
    private readonly db: Kysely<any>,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** Drops the marks of features whose rows were written without a new mark. */
  async drop(featureIDs: readonly string[]): Promise<void> {
    for (let i = 0; i < featureIDs.length; i += CHUNK) {
      const ids = featureIDs.slice(i, i + CHUNK).map((f) => this.dialect.encodeBigint(BigInt(f)))
      await this.db.deleteFrom('ledger_reconciled').where('featureID', 'in', ids).execute()
    }
  }

  /** Stores marks, replacing older ones: multi-row upserts written as SQL text, as insertRows does. */
  async store(marks: ReadonlyMap<string, string>): Promise<void> {
    const entries = [...marks]
    for (let i = 0; i < entries.length; i += PER_UPSERT) {
      const chunk = entries.slice(i, i + PER_UPSERT)
      const parameters: unknown[] = []
      const tuples: string[] = []
      for (const [featureID, inputs] of chunk) {
        parameters.push(this.dialect.encodeBigint(BigInt(featureID)), inputs)
        tuples.push(`(${this.dialect.placeholder(parameters.length - 1)}, ${this.dialect.placeholder(parameters.length)})`)
      }
      const text = `insert into "ledger_reconciled" ("featureID", "inputs") values ${tuples.join(', ')} on conflict ("featureID") do update set "inputs" = excluded."inputs"`
      await this.db.executeQuery(CompiledQuery.raw(text, parameters))
    }
  }
}
