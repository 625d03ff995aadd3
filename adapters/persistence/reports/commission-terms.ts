import { sql, type RawBuilder } from 'kysely'
import type { ProfilePercentsByName, ProfilePercents } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/** A feature's commission terms as text (names, types, profiles, dates) and as money (amounts in minor units). */
export const TERM_TEXT = ['commissionHolder', 'connectionChargeCommissionType', 'serviceChargeCommissionType', 'commissionHolderID2', 'connectionChargeCommissionType2', 'serviceChargeCommissionType2', 'connectionChargeCommissionProfile', 'serviceChargeCommissionProfile', 'callChargeCommissionProfile', 'serviceChargeInterval', 'startDate'] as const
export const TERM_MONEY = ['connectionChargeCommission', 'serviceChargeCommission', 'connectionChargeCommission2', 'serviceChargeCommission2'] as const

/**
 * The columns of `commission_terms` (migration 0079) keeping the percentage (money units) each
 * profile term gave when the terms were kept, and `PERCENTS_KEPT` (1) on the rows kept with
 * them: a percentage is null both for a profile that gave none and on a row kept before 0079,
 * which reads the presets' by name instead.
 */
export const TERM_PERCENT = {
  connectionChargeCommissionProfile: 'connectionChargeCommissionProfilePercent',
  serviceChargeCommissionProfile: 'serviceChargeCommissionProfilePercent',
  callChargeCommissionProfile: 'callChargeCommissionProfilePercent',
} as const satisfies Record<keyof ProfilePercents, string>
export const PERCENTS_KEPT = 'profilePercentsKept'

/** A call commission profile that earns something is set (`None` earns nothing), on feature `g`. */
const earnsOnCalls = (g: string) => sql`coalesce(${sql.ref(`${g}.callChargeCommissionProfile`)}, '') not in ('', 'None')`

/**
 * The one feature whose call commission profile earns on a `Call Charges` row `t` (contracts 16.3,
 * 17.7): of its number's features with a profile that earns, those active when the row's calls
 * start (its first call's day: started, not ended, not dropped before it), the later `startDate`
 * (unset is earliest), then the higher ID. A row's calls are priced call by call, but its
 * commission is the row's: the feature active at its first call takes all of it.
 */
export const callFeature = sql`(select g.id from features g where g."numberID" = t."numberID" and ${earnsOnCalls('g')}
    and (g."startDate" is null or g."startDate" <= coalesce(t."dateFrom", t."transactionDate"))
    and (g."endDate" is null or g."endDate" >= coalesce(t."dateFrom", t."transactionDate"))
    and (g."isDropped" = 0 or g."billToDate" >= coalesce(t."dateFrom", t."transactionDate"))
    order by coalesce(g."startDate", '') desc, g.id desc limit 1)`

/** The columns of `commission_terms` (migration 0071) besides the terms. */
const KEYS = ['billingRunID', 'transactionID', 'featureID', 'kind', 'customerID', 'accountNumber', 'customerHolder', 'commissionReferenceDate', 'saleType', 'holder'] as const

/**
 * The rows on invoices of runs `runs` chooses (a condition on `i."billingRunID"`) that may earn
 * commission, each with the feature and customer terms that decide it as they are now: a charge
 * of a feature with a holder, a `Call Charges` row once, with the feature `callFeature` finds
 * (whose primary holder alone earns on calls). `holder` is the primary holder, the feature's
 * else its customer's.
 */
function earningRows(runs: RawBuilder<boolean>, percents: RawBuilder<unknown>): RawBuilder<unknown> {
  const terms = sql.join([...TERM_TEXT, ...TERM_MONEY].map((c) => sql`f.${sql.id(c)}`).concat(percents))
  const holder = sql`coalesce(nullif(f."commissionHolder", ''), nullif(cu."commissionHolder", ''))`
  const common = (kind: RawBuilder<unknown>) =>
    sql`i."billingRunID", t.id, f.id, ${kind}, cu.id, cu."accountNumber", cu."commissionHolder", cu."commissionReferenceDate", coalesce(f."saleType", cu."saleType"), ${holder}, ${terms}`
  const onRuns = sql`join invoices i on i.id = t."invoiceID" and ${runs} and coalesce(i.status, '') <> 'Draft'`
  return sql`select ${common(sql`t.kind`)} from transactions t ${onRuns} join features f on f.id = t."featureID" join customers cu on cu.id = f."customerID"
      where t.kind is not null and (${holder} is not null or coalesce(f."commissionHolderID2", '') <> '')
    union all
    select ${common(sql`'calls'`)} from transactions t ${onRuns} join features f on f.id = ${callFeature} join customers cu on cu.id = f."customerID"
      where t."transactionType" = 'Call Charges' and ${holder} is not null`
}

/**
 * The percentage feature `f`'s profile term `term` names in `profiles`, as a bigint: a `case`
 * over the profiles that give one (a handful, from the presets, which are not in the database),
 * null for any other name.
 */
function profilePercent(dialect: DatabaseDialect, profiles: ProfilePercentsByName, term: keyof ProfilePercents): RawBuilder<unknown> {
  const giving = Object.entries(profiles).filter(([, p]) => p.percent !== null)
  // Typed even when null: Postgres reads an untyped null of a union as text, which no bigint column takes.
  if (giving.length === 0) return sql`cast(null as bigint)`
  const whens = giving.map(([name, p]) => sql`when ${name} then cast(${dialect.encodeBigint(p.percent!)} as bigint)`)
  return sql`case ${sql.ref(`f.${term}`)} ${sql.join(whens, sql` `)} else cast(null as bigint) end`
}

/**
 * Keeps what the runs `runs` chooses earned commission on (`earningRows`), so their statements
 * and the clawbacks of the credit notes that credit their rows are worked out from the terms as
 * they were, never as they are later (contract 16.3; README: a completed run's statement never
 * changes). With them the percentages their profiles give in `profiles` (the presets now), so a
 * later change of a profile's percentage, or its removal, changes no completed run either.
 * Called in the transaction that completes a run (core/billing/commission-credits.ts).
 */
export async function keepCommissionTerms(db: AnyDb, dialect: DatabaseDialect, runs: RawBuilder<boolean>, profiles: ProfilePercentsByName): Promise<void> {
  const terms = Object.keys(TERM_PERCENT) as (keyof ProfilePercents)[]
  const columns = sql.join([...KEYS, ...TERM_TEXT, ...TERM_MONEY, ...terms.map((t) => TERM_PERCENT[t]), PERCENTS_KEPT].map((c) => sql.id(c)))
  const percents = sql.join([...terms.map((t) => profilePercent(dialect, profiles, t)), sql`1`])
  await sql`insert into commission_terms (${columns}) ${earningRows(runs, percents)}`.execute(db)
}
