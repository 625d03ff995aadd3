import { sql } from 'kysely'
import type { Db } from '../schema/tables.js'
import { correctedHolders } from './commission-corrections.js'

/** Holders per page. */
const PAGE = 500

/** Where a holder is named, each column with its own index (migration 0043). */
const NAMED = [
  { table: 'features', column: 'commissionHolder' },
  { table: 'features', column: 'commissionHolderID2' },
  { table: 'customers', column: 'commissionHolder' },
] as const

/**
 * Every holder named (see `Books.commissionHolders`), a page at a time in the database's order
 * of text: each column's first PAGE distinct names after the page before, read in order from
 * its index and stopped there, and of those three lists the first PAGE. (One ordered union of
 * the three columns would read every named row for every page.) An empty name names no one.
 * With run `run`, also the holders of the rows its refunds and adjustment refunds claw back
 * from, who may be named nowhere any more (commission-corrections.ts).
 */
export async function* commissionHolders(db: Db, size = PAGE, run?: unknown): AsyncGenerator<readonly string[]> {
  const corrected = (after: string) =>
    run === undefined
      ? []
      : (['holder', 'commissionHolderID2'] as const).map((c) => sql`select * from (select distinct h from (${correctedHolders(run, c)}) k where h > ${after} order by 1 limit ${size}) ${sql.id(`corrected_${c}`)}`)
  const firstOf = (after: string) =>
    sql.join(
      [
        ...NAMED.map(({ table, column }) => sql`select * from (select distinct ${sql.ref(column)} as h from ${sql.table(table)} where ${sql.ref(column)} > ${after} order by 1 limit ${size}) ${sql.id(`${table}_${column}`)}`),
        ...corrected(after),
      ],
      sql` union `,
    )
  for (let after = ''; ; ) {
    const page = (await sql<{ h: unknown }>`select h from (${firstOf(after)}) x order by h limit ${size}`.execute(db)).rows.map((r) => String(r.h))
    if (page.length) yield page
    if (page.length < size) return
    after = page[page.length - 1]
  }
}

/**
 * The holders a completed run's kept terms name (migration 0071): of its rows, of the rows
 * the lines of the credit notes it claimed credit, and of the rows its refunds and adjustment
 * refunds correct (commission-corrections.ts). Read in one statement (a run names each of
 * its holders once) and handed out a page at a time in the database's order of text.
 */
export async function* keptCommissionHolders(db: Db, billingRunID: unknown, size = PAGE): AsyncGenerator<readonly string[]> {
  const credited = sql`from transactions l join commission_terms s on s."transactionID" = l."creditedTransactionID"
    where l."creditNoteID" in (select n.id from credit_notes n where n."commissionBillingRunID" = ${billingRunID})`
  const names = (
    await sql<{ h: unknown }>`select h from (
        select holder as h from commission_terms where "billingRunID" = ${billingRunID}
        union select "commissionHolderID2" as h from commission_terms where "billingRunID" = ${billingRunID}
        union select s.holder as h ${credited}
        union select s."commissionHolderID2" as h ${credited}
        union ${correctedHolders(billingRunID, 'holder')}
        union ${correctedHolders(billingRunID, 'commissionHolderID2')}) x
      where h is not null and h <> '' order by h`.execute(db)
  ).rows.map((r) => String(r.h))
  for (let at = 0; at < names.length; at += size) yield names.slice(at, at + size)
}
