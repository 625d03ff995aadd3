import { openBulkWriter } from './bulk-insert.js'
import type { BenchDatabase } from './database.js'

/**
 * The bench's rating rules of contract 17.7 (issue 57), on or off between imports: with them a
 * tenth of the numbers carry a feature naming its own mobile tariff (`UK Feature`) and every
 * tariff is a child of `UK Parent`; without them neither.
 */
export async function setRatingRules(db: BenchDatabase, on: boolean): Promise<void> {
  const setup = openBulkWriter(db)
  if (on) {
    await setup.exec(`update tariffs set "parentTariff" = (select id from tariffs where name = 'UK Parent') where name <> 'UK Parent'`)
    await setup.exec(
      `insert into features ("customerID", "numberID", "featureType", "featureCount", "startDate", "mobileTariff", "status", "statusChangedStamp", "isDropped", "isSuspended", "isBillable", "createdStamp", "updatedStamp") ` +
        `select "customerID", id, 'SIP Channel', 1, '2026-01-01', 'UK Feature', 'Active', '2026-01-01', 0, 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' from numbers where id % 10 = 5`,
    )
  } else {
    await setup.exec(`update tariffs set "parentTariff" = null`)
    await setup.exec(`delete from features where "featureType" = 'SIP Channel'`)
  }
  if (db.kind === 'postgres') await setup.exec('vacuum (analyze) features')
  await setup.close()
}

/** The two tariffs the rules name, made through the API (`post` answers the created item). */
export async function createRuleTariffs(post: (path: string, body: object) => Promise<{ id: string }>): Promise<void> {
  const parent = await post('/tariffs', { name: 'UK Parent', baseRoundSeconds: 60, baseCostMin: 0.05 })
  for (const band of ['day', 'evening', 'weekend', 'any']) await post(`/tariffs/${parent.id}/tariffDetails`, { chargeBand: 'INT', timeBand: band, cost: '0.50' })
  const feature = await post('/tariffs', { name: 'UK Feature' })
  await post(`/tariffs/${feature.id}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'any', cost: '0.04' })
}
