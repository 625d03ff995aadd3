import type { ColumnDataType } from 'kysely'
import type { NewCall } from '../../../core/ports/rating-data.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { quoteIdent } from '../dialect/quote.js'
import { uniqueKey } from '../schema/month-partitions.js'

/**
 * Where calls are partitioned by month (Postgres), their unique index is `(fingerprint,
 * startTime)` and each month's partition checks its own rows: a call keyed by its carrier's
 * record ID (`NewCall.keyedByID`), whose key holds no start, would be stored again when re-sent
 * with a start in another month (or a corrected start in the same one). So its key is claimed in
 * `external_call_keys` (not partitioned, the key alone unique) in the insert's own statement: a
 * writable CTE inserts the batch's keys, and only calls whose key it inserted are stored with
 * those keyed otherwise. Two imports at once claim the same key as they would insert into a
 * unique index: the second waits for the first's commit and finds it. No statement more, and
 * no round trip, than the insert without claims.
 *
 * Calls stored before migration 0087 claimed nothing: imports look for their keys
 * (`speltCarrierKeys` in `core/rating/older-keys.ts`). SQLite's calls are one table with `fingerprint` unique: nothing to claim.
 */
export function claimsKeys(dialect: DatabaseDialect): boolean {
  return dialect.partitions !== null
}

/**
 * The calls to send, the first of each key claimed: two of a batch with one key and two starts
 * would both find their key claimed by the statement, whose `on conflict` sees the start too.
 * Returns `calls` itself when nothing repeats.
 */
export function firstOfEachClaim(calls: readonly NewCall[]): readonly NewCall[] {
  let seen: Set<string> | null = null
  let kept: NewCall[] | null = null
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i]
    if (c.keyedByID) {
      seen ??= new Set()
      if (seen.has(c.fingerprint)) {
        kept ??= calls.slice(0, i)
        continue
      }
      seen.add(c.fingerprint)
    }
    kept?.push(c)
  }
  return kept ?? calls
}

/**
 * The columnar insert of `columns` (then a last boolean column, whether the row is keyed by ID)
 * that claims keyed rows' keys first (`claimsKeys`). `types` are the columns' and the flag's.
 */
export function claimingInsertSql(dialect: DatabaseDialect, columns: readonly string[], types: readonly ColumnDataType[]): string {
  const col = (i: number) => quoteIdent(`column${i + 1}`)
  const fingerprint = col(columns.indexOf('fingerprint'))
  const keyed = col(columns.length)
  const rows = (alias: string) => dialect.columnarRowsSql(types, alias)!
  const conflict = uniqueKey(dialect, 'calls', ['fingerprint']).map(quoteIdent).join(', ')
  return (
    `with "claimed" as (insert into "external_call_keys" ("fingerprint") select ${fingerprint} from ${rows('k')} where ${keyed} ` +
    `on conflict do nothing returning "fingerprint") ` +
    `insert into "calls" (${columns.map(quoteIdent).join(', ')}) select ${columns.map((_, i) => col(i)).join(', ')} from ${rows('c')} ` +
    `where not ${keyed} or ${fingerprint} in (select "fingerprint" from "claimed") on conflict (${conflict}) do nothing`
  )
}
