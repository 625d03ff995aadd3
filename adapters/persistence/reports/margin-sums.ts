import { sql, type RawBuilder } from 'kysely'
import type { DateRange, MarginGrouping, MarginSums } from '../../../core/ports/books.js'
import { accountCurrency, add, DEFAULT_CURRENCY, fromUnits, mulRatio, sub, ZERO, type Money } from '../../../core/money/money.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { callTransaction } from '../repositories/call-coverage.js'
import { pageBounds, readPages, withinPage, type PageBounds } from './read-pages.js'
import { anyDraftSql, onDraft } from '../repositories/draft-lines.js'

/** Customers per page of a margin by customer: the answer streams, whatever the number of customers. */
const CUSTOMER_PAGE = 5000

interface SumRow {
  key: unknown
  /** The customer's `currency` as stored (null or empty: the default). */
  currency?: unknown
  revenue: unknown
  cost: unknown
}

/** The margin's dates, whether any invoice is a draft (contract 16.1) whose rows it leaves out, and the one currency asked for. */
type Window = DateRange & { readonly drafts?: boolean; readonly currency?: string | null }

/** A row's customer (alias `cu`, joined to `t`) for its currency: left, so a row of no customer still counts. */
const customerOf = sql`left join customers cu on cu.id = t."customerID"`
/** The currency of customer `cu` (alias), as `accountCurrency` decides it. */
const currencyOf = (alias: string) => sql`coalesce(nullif(${sql.ref(`${alias}.currency`)}, ''), ${DEFAULT_CURRENCY})`
/** Only the customers billed in the currency asked for (alias `cu`), if any. */
const inCurrency = (range: Window) => (range.currency ? sql` and ${currencyOf('cu')} = ${range.currency}` : sql``)

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
export async function* marginSums(db: Db, dialect: DatabaseDialect, dates: DateRange, groupBy: MarginGrouping, currency: string | null = null): AsyncGenerator<readonly MarginSums[]> {
  const range: Window = { ...dates, drafts: (await anyDraftSql.execute(db)).rows.length > 0, currency }
  const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(dialect.decodeBigint(v)))
  const decode = (r: SumRow): MarginSums => ({
    key: r.key === null || r.key === undefined ? null : String(r.key),
    currency: accountCurrency(r.currency === null || r.currency === undefined ? null : String(r.currency)),
    revenue: money(r.revenue),
    cost: money(r.cost),
  })
  if (groupBy === 'customer') {
    yield* byCustomer(db, dialect, range, decode)
    return
  }
  // A group is a key in one currency: amounts of two currencies are never added.
  const groups = new Map<string, MarginSums>()
  const addTo = (s: MarginSums) => {
    const id = JSON.stringify([s.key, s.currency])
    const g = groups.get(id) ?? { key: s.key, currency: s.currency, revenue: ZERO, cost: ZERO }
    groups.set(id, { ...g, revenue: add(g.revenue, s.revenue), cost: add(g.cost, s.cost) })
  }
  const run = async (q: RawBuilder<SumRow>) =>
    (await q.execute(db)).rows
      .map(decode)
      .filter((r) => r.key !== null || r.revenue !== 0n || r.cost !== 0n)
      .forEach(addTo)
  if (groupBy === 'month') {
    const month = (a: string) => sql`substr(${sql.ref(`${a}.transactionDate`)}, 1, 7)`
    await run(sql<SumRow>`select ${month('t')} as "key", cu.currency as currency, sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t ${customerOf} where ${billed('t', range)}${inCurrency(range)} group by ${month('t')}, cu.currency`)
    await run(sql<SumRow>`select ${month('t')} as "key", cu.currency as currency, sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t ${customerOf} where ${credited('t', range)}${inCurrency(range)} group by ${month('t')}, cu.currency`)
  } else {
    // Feature rows by their feature's value; call charges split by their calls' (below) or, for a feature type, none.
    const splitCalls = groupBy !== 'featureType'
    const featureKey = groupBy === 'callClass' ? sql`null` : sql.ref(`f.${groupBy}`)
    // Postgres takes no constant to group by: rows with no key are grouped by currency alone.
    const grouped = groupBy === 'callClass' ? sql` group by cu.currency` : sql` group by ${featureKey}, cu.currency`
    const notCalls = splitCalls ? sql` and t."transactionType" <> 'Call Charges'` : sql``
    await run(
      sql<SumRow>`select ${featureKey} as "key", cu.currency as currency, sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t left join features f on f.id = t."featureID" ${customerOf} where ${billed('t', range)}${notCalls}${inCurrency(range)}${grouped}`,
    )
    // A credit note line counts where the line it credits does: by the credited row's feature, or,
    // on call charges split by their calls, by its share of the calls' (below).
    const notCreditedCalls = splitCalls ? sql` and c."transactionType" <> 'Call Charges'` : sql``
    await run(
      sql<SumRow>`select ${featureKey} as "key", cu.currency as currency, sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t join transactions c on c.id = t."creditedTransactionID" left join features f on f.id = c."featureID" ${customerOf} where ${credited('t', range)}${notCreditedCalls}${inCurrency(range)}${grouped}`,
    )
    if (splitCalls) {
      const callKey = sql.ref(groupBy === 'callClass' ? 'c.callType' : 'c.carrier')
      const calls: MarginSums[] = []
      for (const join of callsOf('t')) {
        calls.push(...(await sql<SumRow>`select ${callKey} as "key", cu.currency as currency, sum(coalesce(c.cost, 0)) as revenue, sum(coalesce(c."carrierCost", 0)) as cost from transactions t ${join} ${customerOf} where ${billed('t', range)} and t."transactionType" = 'Call Charges'${inCurrency(range)} group by ${callKey}, cu.currency`.execute(db)).rows.map(decode))
      }
      const totals = (await sql<SumRow>`select null as "key", cu.currency as currency, sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t ${customerOf} where ${billed('t', range)} and t."transactionType" = 'Call Charges'${inCurrency(range)} group by cu.currency`.execute(db)).rows.map(decode)
      // Credit note lines on call charges: each split as the row it credits is, by its calls' prices.
      calls.push(...(await creditedCallShares(db, dialect, range, callKey)))
      totals.push(...(await sql<SumRow>`select null as "key", cu.currency as currency, sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t join transactions r on r.id = t."creditedTransactionID" ${customerOf} where ${credited('t', range)} and r."transactionType" = 'Call Charges'${inCurrency(range)} group by cu.currency`.execute(db)).rows.map(decode))
      calls.forEach(addTo)
      // What the calls' prices do not explain (rounding to pence once per row, manual call charges;
      // of a credit note line, its share of that and the rounding of its split) has no class or carrier, per currency.
      const rests = new Map<string, MarginSums>()
      const tally = (s: MarginSums, sign: 1 | -1) => {
        const r = rests.get(s.currency) ?? { key: null, currency: s.currency, revenue: ZERO, cost: ZERO }
        rests.set(s.currency, { ...r, revenue: sign > 0 ? add(r.revenue, s.revenue) : sub(r.revenue, s.revenue), cost: sign > 0 ? add(r.cost, s.cost) : sub(r.cost, s.cost) })
      }
      totals.forEach((t) => tally(t, 1))
      calls.forEach((c) => tally(c, -1))
      for (const rest of rests.values()) if (rest.revenue !== 0n || rest.cost !== 0n) addTo(rest)
    }
  }
  const order = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1)
  yield [...groups.values()].sort((a, b) => order(a.key, b.key) || order(a.currency, b.currency))
}

/**
 * A `Call Charges` row's calls (alias `c`): those a run stamped with it before migration 0045, and
 * those it covers (call-coverage.ts), found by its customer and range before each one's row is derived.
 */
const callsOf = (row: string): RawBuilder<unknown>[] => {
  const r = (column: string) => sql.ref(`${row}.${column}`)
  return [
    sql`join calls c on c."transactionID" = ${r('id')}`,
    sql`join calls c on c."customerID" = ${r('customerID')} and c."transactionID" is null and c."startTime" >= ${r('callsFrom')} and c."startTime" <= ${r('callsTo')} and ${callTransaction('c')} = ${r('id')}`,
  ]
}

interface CreditedCallRow {
  currency?: unknown
  key: unknown
  /** The credit note line's net and cost. */
  amount: unknown
  cost: unknown
  /** The net of the `Call Charges` row it credits. */
  rowAmount: unknown
  /** What the credited row's calls of this key are priced at. */
  calls: unknown
}

/**
 * The credit note lines on `Call Charges` rows by the credited rows' calls' key: each line × the
 * share of its row's net its calls of the key were priced at, exactly to the ten-thousandth. What
 * the shares leave of the lines (the part of the row its calls do not explain, and the rounding)
 * is the caller's to put in the group `null`, as the billed row's.
 */
async function creditedCallShares(db: Db, dialect: DatabaseDialect, range: Window, callKey: RawBuilder<unknown>): Promise<MarginSums[]> {
  const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(dialect.decodeBigint(v)))
  const out: MarginSums[] = []
  for (const join of callsOf('r')) {
    const rows = (
      await sql<CreditedCallRow>`select ${callKey} as "key", cu.currency as currency, t.amount as amount, coalesce(t."carrierCost", 0) as cost, r.amount as "rowAmount", sum(coalesce(c.cost, 0)) as calls
        from transactions t join transactions r on r.id = t."creditedTransactionID" ${join} ${customerOf}
        where ${credited('t', range)} and r."transactionType" = 'Call Charges'${inCurrency(range)}
        group by t.id, t.amount, t."carrierCost", r.amount, ${callKey}, cu.currency`.execute(db)
    ).rows
    for (const row of rows) {
      const whole = money(row.rowAmount)
      if (whole === 0n) continue
      const calls = money(row.calls)
      out.push({
        key: row.key === null || row.key === undefined ? null : String(row.key),
        currency: accountCurrency(row.currency === null || row.currency === undefined ? null : String(row.currency)),
        revenue: mulRatio(money(row.amount), calls, whole),
        cost: mulRatio(money(row.cost), calls, whole),
      })
    }
  }
  return out
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
      await sql<SumRow>`select g."key" as "key", cu.currency as currency, g.revenue as revenue, g.cost as cost from (select "key", sum(revenue) as revenue, sum(cost) as cost from (
          select t."customerID" as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from ${margins} t where ${billed('t', range)}${inPage} group by t."customerID"
          union all
          select t."customerID" as "key", sum(t.amount) as revenue, sum(coalesce(t."carrierCost", 0)) as cost from transactions t where ${credited('t', range)}${inPage} group by t."customerID") s
        group by "key") g left join customers cu on cu.id = g."key" where 1 = 1${inCurrency(range)} order by g."key"`.execute(db)
    ).rows.map(decode)
  }
  for await (const sums of readPages(dialect, pages, read, (page) => page)) if (sums.length) yield sums
}
