import { sql, type Kysely } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { IncreaseSchedule } from '../../../core/ports/increase-schedule.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/** The features an annual increase may be due on, found with their parents in one query a page. */
export class KyselyIncreaseSchedule implements IncreaseSchedule {
  constructor(
    private readonly db: Kysely<any>,
    private readonly dialect: DatabaseDialect,
  ) {}

  async featuresDue(today: DateOnly, profiles: readonly string[], afterID: string | null, limit: number): Promise<string[]> {
    if (profiles.length === 0) return []
    // The feature's own value, else its number's or service's (a feature hangs on one of them at most), else its customer's.
    const effective = (column: string) =>
      sql`coalesce(${sql.ref(`f.${column}`)}, ${sql.ref(`n.${column}`)}, ${sql.ref(`s.${column}`)}, ${sql.ref(`c.${column}`)})`
    let q = this.db
      .selectFrom('features as f')
      .innerJoin('customers as c', 'c.id', 'f.customerID')
      .leftJoin('numbers as n', 'n.id', 'f.numberID')
      .leftJoin('services as s', 's.id', 'f.serviceID')
      .select('f.id')
      .where('f.isDropped', '=', 0)
      .where('f.serviceCharge', 'is not', null)
      .where(effective('annualIncreaseReferenceDate'), '<=', today)
      .where(effective('annualIncreaseProfile'), 'in', profiles)
      .orderBy('f.id')
      .limit(limit)
    if (afterID !== null) q = q.where('f.id', '>', this.dialect.encodeId(afterID))
    return (await q.execute()).map((r) => String(r.id))
  }
}
