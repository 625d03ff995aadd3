import { CompiledQuery } from 'kysely'
import type { Db } from './schema/tables.js'

interface Waiting {
  readonly work: (trx: Db) => Promise<unknown>
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

const SAVEPOINT = CompiledQuery.raw('savepoint grouped')
const RELEASE = CompiledQuery.raw('release grouped')
const ROLLBACK_TO = CompiledQuery.raw('rollback to grouped')

/**
 * Group commit for a database with one writer (SQLite). Transactions asked for while one is
 * running would wait for the connection anyway; here they run one after another inside a single
 * transaction, each in a savepoint of its own (a failure undoes only its own writes, as its own
 * transaction's rollback would), and are answered once that transaction commits. The commit,
 * which writes the changed pages to the log, is then paid once for the group instead of once each
 * (bench/create-customers.ts: a create's commit was 15 % of its CPU).
 *
 * An idle database commits a lone transaction at once, as before. A group holds at most
 * `maxGroup` transactions, so reads waiting for the connection between groups wait no longer than
 * that many transactions.
 */
export class GroupCommit {
  private readonly waiting: Waiting[] = []
  private draining = false

  constructor(
    private readonly db: Db,
    private readonly maxGroup = 32,
  ) {}

  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject })
      if (!this.draining) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.draining = true
    try {
      while (this.waiting.length > 0) await this.commitGroup(this.waiting.splice(0, this.maxGroup))
    } finally {
      this.draining = false
    }
  }

  /** Runs a group in one transaction; each is settled after the commit (or with its own failure). */
  private async commitGroup(group: Waiting[]): Promise<void> {
    const done: { entry: Waiting; value: unknown }[] = []
    let started = 0
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const entry of group) {
          started++
          // A group of one needs no savepoint: its failure rolls back the transaction itself.
          if (group.length === 1) {
            done.push({ entry, value: await entry.work(trx) })
            continue
          }
          await trx.executeQuery(SAVEPOINT)
          let value: unknown
          try {
            value = await entry.work(trx)
          } catch (error) {
            entry.reject(error)
            // If SQLite already rolled the whole transaction back (a full disk, an I/O error), this
            // throws, and the group fails together: none of it is committed.
            await trx.executeQuery(ROLLBACK_TO)
            await trx.executeQuery(RELEASE)
            continue
          }
          await trx.executeQuery(RELEASE)
          done.push({ entry, value })
        }
      })
    } catch (error) {
      // Nothing of the group is committed: those that ran fail with it (the one that was running
      // when it failed as well: a second reject of one already rejected is ignored), and those not
      // reached yet run in the next group.
      for (const entry of group.slice(0, started)) entry.reject(error)
      this.waiting.unshift(...group.slice(started))
      return
    }
    for (const { entry, value } of done) entry.resolve(value)
  }
}
