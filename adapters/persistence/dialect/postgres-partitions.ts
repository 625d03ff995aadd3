import { sql, type Kysely } from 'kysely'
import type { AnyDb } from '../schema/tables.js'
import { monthBounds, monthPartitionName, type PartitionsDialect } from './partitions.js'
import { partitionTableByMonth } from './postgres-partition-table.js'

/** In the caller's transaction, or in one of its own. */
const inTransaction = <T>(db: AnyDb, work: (trx: Kysely<any>) => Promise<T>): Promise<T> => (db.isTransaction ? work(db) : db.transaction().execute(work))

async function months(db: AnyDb, table: string): Promise<string[]> {
  const { rows } = await sql<{ bound: string }>`
    select pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = to_regclass(${table})`.execute(db)
  return rows
    .map((r) => /FROM \('(\d{4}-\d{2})-01/.exec(r.bound)?.[1])
    .filter((m): m is string => m !== undefined)
    .sort()
}

export const postgresPartitions: PartitionsDialect = {
  partitionByMonth: partitionTableByMonth,
  months,
  addMonth(db, table, key, month) {
    const { from, to } = monthBounds(month, key)
    const name = monthPartitionName(table, month)
    const fallback = sql.table(`${table}_default`)
    const column = sql.ref(key.column)
    const inMonth = sql`${column} >= ${from} and ${column} < ${to}`
    return inTransaction(db, async (trx) => {
      // Looked up before the lock as well: the job asks for months that exist on every start of
      // every worker, and a lock request queued behind a billing step's read of the default
      // partition held up every worker's statements after it for up to the timeout, for each
      // month asked (tests/reliability/parallel-workers.test.ts timed out so).
      if ((await months(trx, table)).includes(month)) return false
      // Held to the commit: rows of the month cannot reach the default partition between their
      // move and the attach, and two workers adding the same month take turns.
      // Not for long, though: a lock request waiting behind a long read of the default
      // partition (a billing run's) would hold up every statement that comes after it.
      await sql`set local lock_timeout = '10s'`.execute(trx)
      await sql`lock table ${fallback} in access exclusive mode`.execute(trx)
      if ((await months(trx, table)).includes(month)) return false
      // Made apart and attached, not `partition of`: attaching locks the partitioned table
      // against schema changes only, so reads and writes of other months go on meanwhile.
      await sql`create table ${sql.table(name)} (like ${sql.table(table)} including defaults)`.execute(trx)
      await sql`insert into ${sql.table(name)} select * from ${fallback} where ${inMonth}`.execute(trx)
      await sql`delete from ${fallback} where ${inMonth}`.execute(trx)
      // The check spares the attach a scan of the new partition for rows outside its range.
      const check = sql.id(`${name}_month`)
      await sql`alter table ${sql.table(name)} add constraint ${check} check (${column} is not null and ${inMonth})`.execute(trx)
      await sql`alter table ${sql.table(table)} attach partition ${sql.table(name)} for values from (${from}) to (${to})`.execute(trx)
      await sql`alter table ${sql.table(name)} drop constraint ${check}`.execute(trx)
      return true
    })
  },
}
