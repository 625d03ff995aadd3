import { sql } from 'kysely'
import type { CallMarks } from '../../../core/ports/call-marks.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'

/**
 * The counter row of migration 0045 (see `CallMarks`). It is made by its first use, so a new
 * database stays empty for a restore (as the invoice number counter is). Postgres: writers
 * hold the row `for share` to their commit, and `advance` updates it, so it waits for them;
 * SQLite has one writer at a time, which orders them already.
 */
export class KyselyCallMarks implements CallMarks {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async current(): Promise<number> {
    await this.db.insertInto('call_marks').values({ id: 1, mark: 0 }).onConflict((oc) => oc.column('id').doNothing()).execute()
    let q = this.db.selectFrom('call_marks').select('mark').where('id', '=', 1)
    if (this.dialect.rowLocks) q = q.forShare()
    const row = await q.executeTakeFirstOrThrow()
    return Number(row.mark)
  }

  async advance(): Promise<number> {
    const row = await this.db
      .insertInto('call_marks')
      .values({ id: 1, mark: 1 })
      .onConflict((oc) => oc.column('id').doUpdateSet({ mark: sql`call_marks.mark + 1` }))
      .returning('mark')
      .executeTakeFirstOrThrow()
    return Number(row.mark)
  }

  async noteSince(mark: number, since: string): Promise<void> {
    await this.db.insertInto('call_mark_starts').values({ mark, since }).execute()
  }

  async earliestSince(fromMark: number): Promise<string | null> {
    const row = await this.db.selectFrom('call_mark_starts').select((eb) => eb.fn.min('since').as('since')).where('mark', '>=', fromMark).executeTakeFirst()
    return (row?.since as string | null | undefined) ?? null
  }

  async forgetBefore(mark: number): Promise<void> {
    await this.db.deleteFrom('call_mark_starts').where('mark', '<', mark).execute()
  }
}
