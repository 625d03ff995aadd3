import { sql, type RawBuilder } from 'kysely'

/**
 * A draft invoice's rows (contract 16.1) are stored approved and on it, as a run without review
 * writes its invoices' rows, and read unapproved while their invoice is a draft: its approval
 * then writes the invoices only (migration 0046). What the contract calls approved is the stored
 * flag and not on a draft; these fragments say so wherever approval is read in SQL. The drafts
 * are one run's at most (a run in Review holds the charges), found by the invoices' status index.
 */
const drafts = sql`(select d.id from invoices d where d.status = 'Draft')`

/** Whether the row's invoice (`alias`.invoiceID) is a draft; null where it has none. */
export function onDraft(alias: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${alias}.invoiceID`)} in ${drafts}`
}

/** The row's approval as the contract tells it, as the stored flag (0 or 1). */
export function approvedSql(alias: string): RawBuilder<number> {
  const approved = sql.ref(`${alias}.approved`)
  return sql<number>`case when ${approved} = 1 and ${onDraft(alias)} then 0 else ${approved} end`
}

/** Rows approved (`true`) or not, as the contract tells it. */
export function approvedIs(alias: string, approved: boolean): RawBuilder<boolean> {
  const stored = sql.ref(`${alias}.approved`)
  const invoice = sql.ref(`${alias}.invoiceID`)
  return approved
    ? sql<boolean>`(${stored} = 1 and not (${invoice} is not null and ${onDraft(alias)}))`
    : sql<boolean>`(${stored} = 0 or (${invoice} is not null and ${onDraft(alias)}))`
}

/** Whether any invoice is a draft: readers that sum approved rows from an index without the invoice skip the check otherwise. */
export const anyDraftSql = sql<{ one: number }>`select 1 as one from invoices d where d.status = 'Draft' limit 1`
