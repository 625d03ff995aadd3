import { sql } from 'kysely'
import type { StoredChargeHistory, TariffPricedFeatures, TariffPricedScope } from '../../../core/ports/tariff-priced-features.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { anyTables, type Db } from '../schema/tables.js'
import { updateEach } from '../update-each.js'

const HISTORY_COLUMNS = [{ name: 'chargeHistory', type: 'text' }] as const

/** The features a fixed fee tariff prices, found with their parents in one query. */
export class KyselyTariffPricedFeatures implements TariffPricedFeatures {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async featureIDs(scope: TariffPricedScope): Promise<string[]> {
    if ('tariffs' in scope && scope.tariffs.length === 0) return []
    // As `applicableTariff`: the feature's own (even empty), else its number's (when it has one) or
    // service's, else its customer's.
    const tariff = sql`coalesce(${sql.ref('f.fixedFeeTariff')}, case when ${sql.ref('n.id')} is not null then ${sql.ref('n.fixedFeeTariff')} else ${sql.ref('s.fixedFeeTariff')} end, ${sql.ref('c.fixedFeeTariff')})`
    let q = anyTables(this.db)
      .selectFrom('features as f')
      .leftJoin('customers as c', 'c.id', 'f.customerID')
      .leftJoin('numbers as n', 'n.id', 'f.numberID')
      .leftJoin('services as s', 's.id', 'f.serviceID')
      .select('f.id')
      .where('f.serviceCharge', 'is', null)
      .where('f.startDate', 'is not', null)
      .orderBy('f.id')
    if ('tariffs' in scope) q = q.where(tariff, 'in', [...new Set(scope.tariffs)])
    else q = q.where(sql.ref(`f.${scope.of.column}`), '=', this.dialect.encodeId(scope.of.id)).where(tariff, 'is not', null).where(tariff, '<>', '')
    return (await q.execute()).map((r) => String(r.id))
  }

  async writeHistories(rows: readonly StoredChargeHistory[]): Promise<void> {
    if (rows.length === 0) return
    await updateEach(this.db, this.dialect, 'features', HISTORY_COLUMNS, rows.map((r) => ({ id: this.dialect.encodeId(r.id), values: [r.chargeHistory] })))
  }
}
