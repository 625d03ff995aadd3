import type { CarrierData, NewDestination } from '../../../core/ports/carrier-data.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { insertColumns } from '../insert-rows.js'
import { columnType } from '../schema/columns.js'
import type { Db } from '../schema/tables.js'

const DESTINATION_COLUMNS = ['destinationTableID', 'prefix', 'chargeBand', 'callClass', 'description', 'createdStamp', 'updatedStamp'] as const

/** `CarrierData` on Kysely, both databases: column-wise bulk inserts as an import's calls are written. */
export class KyselyCarrierData implements CarrierData {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async prefixesOf(destinationTableID: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('destinations').select('prefix').where('destinationTableID', '=', this.dialect.encodeId(destinationTableID)).execute()
    return new Set(rows.map((r) => String(r.prefix)))
  }

  async insertDestinations(rows: readonly NewDestination[]): Promise<void> {
    const id = this.dialect.encodeId(rows[0]?.destinationTableID ?? '0')
    const values = DESTINATION_COLUMNS.map((c) => rows.map((r) => (c === 'destinationTableID' ? id : r[c])))
    const types = DESTINATION_COLUMNS.map((c) => columnType(catalogue.destinations.byName.get(c)!, this.dialect))
    await insertColumns(this.db, this.dialect, 'destinations', DESTINATION_COLUMNS, values, rows.length, { types })
  }
}
