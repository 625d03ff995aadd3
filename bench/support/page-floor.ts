import SqliteDatabase from 'better-sqlite3'
import pg from 'pg'
import type { BenchDatabase } from './database.js'

const CUSTOMERS = `select c.*, (select coalesce(sum(t.amount) + sum(t."VATAmount"), 0) from transactions t where t."customerID" = c.id) as balance from customers c where c.id > $1 order by c.id limit 1000`
const NUMBERS = `select * from numbers where "customerID" in (select id from customers where id > $1 order by id limit 1000) order by id`

/** What a page of 1000 customers with their numbers costs a server that builds its rows in JavaScript, in this process. */
export interface PageFloor {
  /** The two statements, rows fetched as arrays (no objects, no JSON). */
  readonly statementsMs: number
  /** JSON.stringify of those arrays: less text than the API's page, whose members are named. */
  readonly jsonMs: number
  readonly jsonBytes: number
}

/**
 * A page of 1000 customers with expandNumbers as a server that reads rows into JavaScript
 * must make it at the least: the two statements with rows as bare arrays, then JSON text of the
 * arrays (without member names). The platform has the database write each item's JSON instead
 * (ListJson), so it can answer in less than this.
 */
export async function measurePageFloor(db: BenchDatabase, afters: readonly number[]): Promise<PageFloor> {
  const read = db.kind === 'sqlite' ? sqliteReader(db.file!) : await postgresReader(db.childUrl)
  try {
    const statements: number[] = []
    const json: number[] = []
    let bytes = 0
    for (const after of afters) {
      let start = performance.now()
      const rows = await read(after)
      statements.push(performance.now() - start)
      start = performance.now()
      // No replacer: both drivers give numbers or strings here, and a replacer is a call per value.
      bytes = JSON.stringify(rows).length
      json.push(performance.now() - start)
    }
    const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    return { statementsMs: mid(statements), jsonMs: mid(json), jsonBytes: bytes }
  } finally {
    await read.close()
  }
}

type Reader = ((after: number) => Promise<unknown[][]>) & { close(): Promise<void> }

function sqliteReader(file: string): Reader {
  const db = new SqliteDatabase(file, { readonly: true })
  const customers = db.prepare(CUSTOMERS.replace('$1', '?')).raw(true)
  const numbers = db.prepare(NUMBERS.replace('$1', '?')).raw(true)
  return Object.assign(async (after: number) => [customers.all(after), numbers.all(after)] as unknown[][], { close: async () => { db.close() } })
}

async function postgresReader(url: string): Promise<Reader> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const run = async (name: string, text: string, after: number) => (await client.query({ name, text, values: [after], rowMode: 'array' })).rows
  return Object.assign(async (after: number) => [await run('floor-c', CUSTOMERS, after), await run('floor-n', NUMBERS, after)], { close: () => client.end() })
}
