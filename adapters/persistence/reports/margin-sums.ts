import { sql, type RawBuilder } from 'kysely'
import type { DateRange, MarginGrouping, MarginSums } from '../../../core/ports/books.js'
import { add, fromUnits, sub, ZERO, type Money } from '../../../core/money/money.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { callTransaction } from '../repositories/call-coverage.js'
import { pageBounds, readPages, withinPage, type PageBounds } from './read-pages.js'
import { anyDraftSql, onDraft } from '../repositories/draft-lines.js'

/** Customers per page of a margin by customer: the answer streams, whatever the number of customers. */
const CUSTOMER_PAGE = 5000

interface SumRow {
  key: unknown
  revenue: unknown
  cost: unknown
}

/** The margin's dates, and whether any invoice is a draft (contract 16.1) whose rows it leaves out. */
type Window = DateRange & { readonly drafts?: boolean }

/**
 * Revenue is net billed (contract 16.2): the approved rows that are not payments or write-offs
 * (`settles`), and credit note lines, which take billed revenue back. Written so that the
 * partial index `transactions_margin_idx` (migration 0063) answers it (its condition spelled as the index's). A
 * draft's rows are stored approved (draft-lines.ts): left out by their invoice only while a run
 * is in review, the index alone answers otherwise.
 */
const billed = (alias: string, range: Window): RawBuilder<boolean> =>
  sql<boolean>`${sql.ref(`${alias}.approved`)} = 1 and coalesce(${sql.ref(`${alias}.settles`)}, 0) = 0${inRange(alias, range)}${range.drafts ? sql` and not (${sql.ref(`${alias}.invoiceID`)} is not null and ${onDraft(alias)})` : sql``}`
const credited = (alias: string, range: DateRange): RawBuilder<boolean> => sql<boolean>`${sql.ref(`${alias}.creditNoteID`)} is not null${inRange(alias, range)}`

function inRange(alias: string, range: DateRange): RawBuilder<unknown> {
  const date = sql.ref(`${alias}.transactionDate`)
  const from = range.from ? sql` and ${date} >= ${range.from}` : sql``
  const to = range.to ? sql` and ${date} <= ${range.to}` : sql``
  return sql`${from}${to}`
}

/** The margin's sums by group, read where they are (see `Books.margin`). */
export async function* marginSums(db: Db, dialect: DatabaseDialect, dates: DateRange, groupBy: MarginGrouping): AsyncGenerator<readonly MarginSums[]> {
  const range: Window = { ...dates, drafts: (await anyDraftSql.execute(db)).rows.length > 0 }
  const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(dialect.decodeBigint(v)))
  const decode = (r: SumRow): MarginSums => ({ key: r.key === null || r.key === undefined ? null : String(r.key), revenue: money(r.revenue), cost: money(r.cost) })
  if (groupBy === 'customer') {
    yield* byCustomer(db, dialect, range, decode)
    return
  }
  const groups = new Map<string | null, { revenue: Money; cost: Money }>()
  const addTo = (s: MarginSums) => {
    const g = groups.get(s.key) ?? { revenue: ZERO, cost: ZERO }
    groups.set(s.key, { revenue: add(g.revenue, s.revenue), cost: add(g.cost, s.cost) })
  }
  const run = async (q: RawBuilder<SumRow>) =>
    (await q.execute(db)).rows
      .map(decode)
      .filter((r) => r.key !== null || r.revenue !== 0n || r.cost !== 0n)
      .forEach(addTo)
  if (groupBy === 'month') {
    const month = (a: string) => sql`substr(${sql.ref(`${a}.transactionDate`)}, 1, 7)`
    await run(sql<SumRow>`select ${month('t')} as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t where ${billed('t', range)} group by ${month('t')}`)
    await run(sql<SumRow>`select ${month('t')} as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t where ${credited('t', range)} group by ${month('t')}`)
  } else {
    // Feature rows by their feature's value; call charges split by their calls' (below) or, for a feature type, none.
    const splitCalls = groupBy !== 'featureType'
    const featureKey = groupBy === 'callClass' ? sql`null` : sql.ref(`f.${groupBy}`)
    // Postgres takes no constant to group by: rows with no key are one group without it.
    const grouped = groupBy === 'callClass' ? sql`` : sql` group by ${featureKey}`
    const notCalls = splitCalls ? sql` and t."transactionType" <> 'Call Charges'` : sql``
    await run(
      sql<SumRow>`select ${featureKey} as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t left join features f on f.id = t."featureID" where ${billed('t', range)}${notCalls}${grouped}`,
    )
    // A credit note line counts where the line it credits does (never split by call).
    await run(
      sql<SumRow>`select ${featureKey} as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t join transactions c on c.id = t."creditedTransactionID" left join features f on f.id = c."featureID" where ${credited('t', range)}${grouped}`,
    )
    if (splitCalls) {
      const callKey = sql.ref(groupBy === 'callClass' ? 'c.callType' : 'c.carrier')
      // A row's calls: those a run stamped with it before migration 0045, and those it covers
      // (call-coverage.ts), found by its customer and range before each one's row is derived.
      const stamped = sql`join calls c on c."transactionID" = t.id`
      const covered = sql`join calls c on c."customerID" = t."customerID" and c."transactionID" is null and c."startTime" >= t."callsFrom" and c."startTime" <= t."callsTo" and ${callTransaction('c')} = t.id`
      const calls: MarginSums[] = []
      for (const join of [stamped, covered]) {
        calls.push(...(await sql<SumRow>`select ${callKey} as "key", sum(coalesce(c.cost, 0)) as revenue, sum(coalesce(c."carrierCost", 0)) as cost from transactions t ${join} where ${billed('t', range)} and t."transactionType" = 'Call Charges' group by ${callKey}`.execute(db)).rows.map(decode))
      }
      const total = (await sql<SumRow>`select null as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t where ${billed('t', range)} and t."transactionType" = 'Call Charges'`.execute(db)).rows.map(decode)[0]
      calls.forEach(addTo)
      // What the calls' prices do not explain (rounding to pence once per row, manual call charges) has no class or carrier.
      const split = calls.reduce((s, c) => ({ revenue: add(s.revenue, c.revenue), cost: add(s.cost, c.cost) }), { revenue: ZERO, cost: ZERO })
      const rest = { key: null, revenue: sub(total?.revenue ?? ZERO, split.revenue), cost: sub(total?.cost ?? ZERO, split.cost) }
      if (rest.revenue !== 0n || rest.cost !== 0n) addTo(rest)
    }
  }
  const keys = [...groups.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0))
  yield keys.map((key) => ({ key, ...groups.get(key)! }))
}

/**
 * By customer, a page of customers at a time in ID order, each page's credit notes with it.
 * A page is a range of customer IDs, every page's bounds read from the customers first: bounded
 * so, its sums are one range read of the books index on both databases, where "after this ID,
 * the first 5,000 groups" let Postgres, which expected few rows, scan the whole ledger for each
 * page (bench/reports.ts). The billed rows and the credit note lines are summed in one
 * statement, in key order, and the next pages are read while this one is written out (on
 * Postgres two at once: read-pages.ts). The billed rows are read from `transactions_margin_idx`
 * alone: SQLite is told (`throughIndex`), where its statistics chose the customer index for one
 * page in five and read every row of those from the table (bench/RESULTS.md, session 33).
 */
async function* byCustomer(db: Db, dialect: DatabaseDialect, range: Window, decode: (r: SumRow) => MarginSums): AsyncGenerator<readonly MarginSums[]> {
  const pages = await pageBounds(db, sql`select c.id as id from customers c`, CUSTOMER_PAGE)
  const margins = dialect.throughIndex('transactions', 'transactions_margin_idx')
  const read = async (page: PageBounds): Promise<MarginSums[]> => {
    const inPage = sql` and ${withinPage(sql`t."customerID"`, page)}`
    return (
      await sql<SumRow>`select "key", sum(revenue) as revenue, sum(cost) as cost from (
          select t."customerID" as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from ${margins} t where ${billed('t', range)}${inPage} group by t."customerID"
          union all
          select t."customerID" as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t where ${credited('t', range)}${inPage} group by t."customerID") s
        group by "key" order by "key"`.execute(db)
    ).rows.map(decode)
  }
  for await (const sums of readPages(dialect, pages, read, (page) => page)) if (sums.length) yield sums
}
