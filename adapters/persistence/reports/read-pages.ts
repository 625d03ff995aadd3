import { sql, type RawBuilder } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'

/** A page of a report: IDs from `from` up to `to` (excluded), the last page's up to `last` (included). */
export interface PageBounds {
  readonly from: unknown
  readonly to: unknown
  readonly last: unknown
}

/**
 * The pages of `ids` (a statement selecting a column `id`, ordered by nothing) of `size` IDs
 * each, as ranges: every `size`th ID and the last, read in one statement from the index the IDs
 * come from. Known first, pages can be read several at once (`readPages`), where each page's
 * start was the end of the page before.
 */
export async function pageBounds(db: Db, ids: RawBuilder<unknown>, size: number): Promise<PageBounds[]> {
  const rows = (
    await sql<{ id: unknown; n: unknown; total: unknown }>`select id, n, total from (select p.id as id, row_number() over (order by p.id) as n, count(*) over () as total from (${ids}) p) x
      where (n - 1) % ${size} = 0 or n = total order by id`.execute(db)
  ).rows
  if (rows.length === 0) return []
  const last = rows[rows.length - 1].id
  const starts = rows.filter((r) => (Number(r.n) - 1) % size === 0).map((r) => r.id)
  return starts.map((from, i) => ({ from, to: i + 1 < starts.length ? starts[i + 1] : null, last }))
}

/** `column` within a page's bounds, as a condition. */
export const withinPage = (column: RawBuilder<unknown>, page: PageBounds): RawBuilder<unknown> =>
  page.to === null ? sql`${column} >= ${page.from} and ${column} <= ${page.last}` : sql`${column} >= ${page.from} and ${column} < ${page.to}`

/**
 * A report's pages, `dialect.pagesAtOnce` of them read while the one before is written out: on
 * Postgres the next two pages' statements run on two connections (its server on both cores)
 * while this thread writes out the page before, so an answer takes about the longest of the
 * parts, not their sum. Each page is read by `read` and written out by `out`, in order.
 */
export async function* readPages<P, T>(dialect: DatabaseDialect, pages: readonly PageBounds[], read: (page: PageBounds) => Promise<P>, out: (page: P) => T): AsyncGenerator<T> {
  const reading: Promise<P>[] = []
  let next = 0
  const more = () => {
    while (reading.length < dialect.pagesAtOnce && next < pages.length) reading.push(started(read(pages[next++])))
  }
  more()
  while (reading.length) {
    const page = await reading.shift()!
    more()
    yield out(page)
  }
}

/** A read begun before it is awaited: should the answer end first, its failure is no unhandled rejection. */
function started<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined)
  return read
}
