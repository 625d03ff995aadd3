import type { DateOnly } from '../../../core/dates/date-only.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { ContractEndResource, ContractEnds } from '../../../core/ports/contract-ends.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { anyTables, type Db } from '../schema/tables.js'

/** The items whose contract end is to be announced, on the `customers`, `numbers` and `services` tables. */
export class KyselyContractEnds implements ContractEnds {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async due(resource: ContractEndResource, from: DateOnly, to: DateOnly, afterID: string, limit: number): Promise<string[]> {
    // The table is named at run time (one query for three tables): the escape hatch of tables.ts.
    // The end date's range is read on its index (migration 0081); the rest are checks of those rows.
    const rows = await anyTables(this.db)
      .selectFrom(catalogue[resource].table)
      .select('id')
      .where('contractEndDate', '>=', from)
      .where('contractEndDate', '<=', to)
      .where('isDropped', '=', 0)
      .where((eb) => eb.or([eb('contractEndNoticeFor', 'is', null), eb('contractEndNoticeFor', '<>', eb.ref('contractEndDate'))]))
      .where('id', '>', this.dialect.encodeId(afterID))
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map((r) => String(r.id))
  }
}
