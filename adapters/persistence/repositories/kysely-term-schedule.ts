import type { Db } from '../schema/tables.js'
import { sql } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { RenewalDue, TermSchedule } from '../../../core/ports/term-schedule.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/** The features whose dates are due: annual increases found with their parents, renewals by their index. */
export class KyselyTermSchedule implements TermSchedule {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async increasesDue(today: DateOnly, profiles: readonly string[], afterID: string | null, limit: number): Promise<string[]> {
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
      // A dropped feature is raised while it is still billed on its increase date (its bill-to date).
      .where(sql<boolean>`(${sql.ref('f.isDropped')} = 0 or ${sql.ref('f.billToDate')} >= ${effective('annualIncreaseReferenceDate')})`)
      .where('f.serviceCharge', 'is not', null)
      .where(effective('annualIncreaseReferenceDate'), '<=', today)
      .where(effective('annualIncreaseProfile'), 'in', profiles)
      .orderBy('f.id')
      .limit(limit)
    if (afterID !== null) q = q.where('f.id', '>', this.dialect.encodeId(afterID))
    return (await q.execute()).map((r) => String(r.id))
  }

  async renewalsDue(before: DateOnly, limit: number): Promise<RenewalDue[]> {
    // Ordered by the indexed date (0017), so the few due are found without reading every feature.
    const rows = await this.db
      .selectFrom('features')
      .select(['id', 'startDate', 'renewalDate', 'renewalPeriodLength', 'renewalPeriodLengthType', 'updatedStamp'])
      .where('renewalDate', '<', before)
      .where('renewalPeriodLength', '>', 0)
      .orderBy('renewalDate')
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map((r) => ({ ...r, id: String(r.id), renewalPeriodLength: r.renewalPeriodLength === null ? null : Number(r.renewalPeriodLength) }) as RenewalDue)
  }
}
