import { createReadStream } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import * as assert from 'uvu/assert'
import { parseCsv, type Cell } from '../../adapters/archive/csv.js'
import { extractArchive } from '../../adapters/archive/seven-zip.js'
import type { Database } from '../../adapters/persistence/connect.js'
import type { Harness } from './harness.js'

/** A table as rows of text, as an archive's CSV file holds it. */
export interface TableText {
  readonly columns: string[]
  readonly rows: Cell[][]
}

/** Decrypts an archive with 7za into a temporary directory and parses every CSV file. */
export async function readArchive(archive: string, password: string): Promise<Map<string, TableText>> {
  const dir = await mkdtemp(join(tmpdir(), 'dr-test-'))
  try {
    await extractArchive(archive, dir, password)
    const out = new Map<string, TableText>()
    for (const name of (await readdir(dir)).sort()) {
      const records: Cell[][] = []
      for await (const r of parseCsv(createReadStream(join(dir, name), { encoding: 'utf8' }))) records.push(r)
      const [header, ...rows] = records
      out.set(name.replace(/\.csv$/, ''), { columns: header.map((c) => c ?? ''), rows })
    }
    return out
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * A table read straight from the database, independently of the export code: plain
 * `select *`, values turned to text the way JavaScript prints them, rows in key order.
 */
export async function readTable(database: Database, table: string): Promise<TableText> {
  const shape = await database.dialect.describeTable(database.db, table)
  const key = shape.primaryKey.length ? shape.primaryKey : shape.columns
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.id(table)} order by ${sql.join(key.map((c) => sql.id(c)))}`.execute(
    database.db,
  )
  return {
    columns: [...shape.columns],
    rows: rows.map((row) => shape.columns.map((c) => (row[c] === null || row[c] === undefined ? null : String(row[c])))),
  }
}

/** Customers (through the HTTP API), each with a number, whose text is awkward for CSV. */
export const awkwardNames = ['Plain', 'Comma, Ltd', 'Say "hi"', 'Two\r\nlines', 'Ünïcødé ☎', ' padded ']

export async function seedAwkwardRows(h: Harness): Promise<void> {
  for (const [i, name] of awkwardNames.entries()) {
    // email alternates unset and the empty string, which a CSV file must keep apart
    const c = await h.request('POST', '/customers', { companyName: name, accountNumber: `DR-${i}`, turnover: '1234.5678', email: i % 2 ? '' : null })
    assert.is(c.status, 201, c.text)
    const n = await h.request('POST', `/customers/${c.body.id}/numbers`, { number: `0117 496 00${i}` })
    assert.is(n.status, 201, n.text)
  }
}
