import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import SqliteDatabase from 'better-sqlite3'
import pg from 'pg'

/**
 * The baseline the HTTP figures are compared with: bare node:http and one prepared statement
 * per route, serving the same customer data as JSON. No framework, validation or auth.
 * BASELINE_DB is a SQLite file or a Postgres URL; PORT where to listen.
 */
const target = process.env.BASELINE_DB!
const port = Number(process.env.PORT)
const GET_SQL = `select c.*, (select coalesce(sum(t.amount) + sum(t."VATAmount"), 0) from transactions t where t."customerID" = c.id) as balance from customers c where c.id = `
const INSERT_COLUMNS = ['accountNumber', 'title', 'firstnames', 'lastname', 'companyName', 'address1', 'postcode', 'country', 'email', 'VATRate', 'paymentTerms', 'createdStamp', 'updatedStamp']

interface Queries {
  get(id: number): Promise<unknown>
  /** 1000 customers after an ID, each with its numbers: two statements. */
  page(after: number): Promise<unknown[]>
  /** `limit` customers after an ID (a plain list page): one statement. */
  list(after: number, limit: number): Promise<unknown[]>
  insert(values: unknown[]): Promise<unknown>
  /**
   * The same insert with the two rows a create must commit with it (contract 12): its history
   * entry (every field set, as a create's change list) and its event, in one transaction.
   */
  insertRecorded(values: unknown[]): Promise<unknown>
}

const HISTORY_SQL = (p: (i: number) => string) =>
  `insert into history ("resource", "resourceID", "customerID", "action", "changes", "apiKeyName", "requestID", "createdStamp", "updatedStamp") values ('customers', ${p(1)}, ${p(1)}, 'create', ${p(2)}, 'bench', null, ${p(3)}, ${p(3)})`
const EVENT_SQL = (p: (i: number) => string) => `insert into events ("type", "data", "createdStamp", "updatedStamp") values ('customer.created', ${p(1)}, ${p(2)}, ${p(2)})`
type Row = Record<string, unknown>
const changesOf = (row: Row) => JSON.stringify(Object.entries(row).filter(([, v]) => v !== null).map(([field, v]) => ({ field, from: null, to: typeof v === 'bigint' ? Number(v) : v })))
const dataOf = (row: Row) => JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? Number(v) : v))

function sqliteQueries(file: string): Queries {
  const db = new SqliteDatabase(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 10000')
  const get = db.prepare(`${GET_SQL}?`)
  const insert = db.prepare(`insert into customers (${INSERT_COLUMNS.map((c) => `"${c}"`).join(',')}) values (${INSERT_COLUMNS.map(() => '?').join(',')}) returning *`)
  const customers = db.prepare(`${GET_SQL.replace(/ where c\.id = $/, '')} where c.id > ? order by c.id limit 1000`)
  const list = db.prepare(`${GET_SQL.replace(/ where c\.id = $/, '')} where c.id > ? order by c.id limit ?`)
  const numbers = db.prepare(`select * from numbers where "customerID" in (select id from customers where id > ? order by id limit 1000) order by id`)
  const history = db.prepare(HISTORY_SQL(() => '?'))
  const event = db.prepare(EVENT_SQL(() => '?'))
  const recorded = db.transaction((values: unknown[]) => {
    const row = insert.get(values) as Row
    const now = values[INSERT_COLUMNS.indexOf('createdStamp')]
    history.run(row.id, row.id, changesOf(row), now, now)
    event.run(dataOf(row), now, now)
    return row
  })
  return {
    insertRecorded: async (values) => recorded(values),
    get: async (id) => get.get(id),
    insert: async (values) => insert.get(values),
    page: async (after) => nest(customers.all(after) as Row[], numbers.all(after) as Row[]),
    list: async (after, limit) => list.all(after, limit),
  }
}


/** Customers with a `numbers` array each, as expandNumbers answers. */
function nest(customers: Row[], numbers: Row[]): Row[] {
  const byCustomer = new Map<unknown, Row[]>()
  for (const n of numbers) {
    const list = byCustomer.get(n.customerID)
    if (list) list.push(n)
    else byCustomer.set(n.customerID, [n])
  }
  for (const c of customers) c.numbers = byCustomer.get(c.id) ?? []
  return customers
}

function postgresQueries(url: string): Queries {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  const insertText = `insert into customers (${INSERT_COLUMNS.map((c) => `"${c}"`).join(',')}) values (${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(',')}) returning *`
  const customersText = `${GET_SQL.replace(/ where c\.id = $/, '')} where c.id > $1 order by c.id limit 1000`
  const numbersText = `select * from numbers where "customerID" in (select id from customers where id > $1 order by id limit 1000) order by id`
  return {
    page: async (after) => {
      const [c, n] = await Promise.all([pool.query({ name: 'page-c', text: customersText, values: [after] }), pool.query({ name: 'page-n', text: numbersText, values: [after] })])
      return nest(c.rows, n.rows)
    },
    get: async (id) => (await pool.query({ name: 'get', text: `${GET_SQL}$1`, values: [id] })).rows[0],
    list: async (after, limit) => (await pool.query({ name: 'list', text: `${GET_SQL.replace(/ where c\.id = $/, '')} where c.id > $1 order by c.id limit $2`, values: [after, limit] })).rows,
    insert: async (values) => (await pool.query({ name: 'insert', text: insertText, values })).rows[0],
    insertRecorded: async (values) => {
      const client = await pool.connect()
      try {
        await client.query('begin')
        const row = (await client.query({ name: 'insert', text: insertText, values })).rows[0] as Row
        const now = values[INSERT_COLUMNS.indexOf('createdStamp')]
        await client.query({ name: 'history', text: HISTORY_SQL((i) => `$${i}`), values: [row.id, changesOf(row), now] })
        await client.query({ name: 'event', text: EVENT_SQL((i) => `$${i}`), values: [dataOf(row), now] })
        await client.query('commit')
        return row
      } catch (error) {
        await client.query('rollback')
        throw error
      } finally {
        client.release()
      }
    },
  }
}

const queries = target.startsWith('postgres') ? postgresQueries(target) : sqliteQueries(target)

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, (_, v) => (typeof v === 'bigint' ? Number(v) : v))
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) text += chunk
  return text
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/'
  if (url === '/healthz') return send(res, 200, { ok: true })
  const page = /^\/backend\/api\/v1\/customers\/\?limit=1000&expandNumbers&idAfter=(\d+)$/.exec(url)
  if (req.method === 'GET' && page) return send(res, 200, await queries.page(Number(page[1])))
  const list = /^\/backend\/api\/v1\/customers\/\?limit=(\d+)&idAfter=(\d+)$/.exec(url)
  if (req.method === 'GET' && list) return send(res, 200, await queries.list(Number(list[2]), Number(list[1])))
  const m = /^\/backend\/api\/v1\/customers\/(\d+)$/.exec(url)
  if (req.method === 'GET' && m) {
    const row = await queries.get(Number(m[1]))
    return row ? send(res, 200, row) : send(res, 404, { error: 'not found' })
  }
  const create = /^\/backend\/api\/v1\/customers\/?(\?recorded)?$/.exec(url)
  if (req.method === 'POST' && create) {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>
    const now = new Date().toISOString()
    const values = INSERT_COLUMNS.map((c) => (c.endsWith('Stamp') ? now : (body[c] ?? null)))
    return send(res, 201, await (create[1] ? queries.insertRecorded(values) : queries.insert(values)))
  }
  send(res, 404, { error: 'no route' })
}

/**
 * BASELINE_FRAMEWORK=h3 serves the same route through h3 (no auth, no logging, no Kysely): the
 * floor the framework alone sets, to tell framework cost from the platform's own.
 */
async function h3Handler() {
  const { H3 } = await import('h3')
  const { toNodeHandler } = await import('h3/node')
  const app = new H3()
  app.get('/healthz', () => ({ ok: true }))
  app.get('/backend/api/v1/customers/:id', async (event) => {
    const row = await queries.get(Number(event.context.params!.id))
    const text = JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? Number(v) : v))
    const { FastResponse } = await import('srvx')
    return new FastResponse(text, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } })
  })
  return toNodeHandler(app)
}

if (process.env.BASELINE_FRAMEWORK === 'h3') {
  createServer(await h3Handler()).listen(port, '127.0.0.1')
} else {
  createServer((req, res) => {
    handle(req, res).catch((e) => send(res, 500, { error: String(e) }))
  }).listen(port, '127.0.0.1')
}

// Exiting on SIGTERM (not being killed by it) lets `--cpu-prof` write the baseline's profile too.
process.on('SIGTERM', () => process.exit(0))
