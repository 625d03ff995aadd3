import type { Db, Integer } from '../schema/tables.js'
import { generatedFunction } from '../../../core/codegen/generated-function.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { Field } from '../../../core/fields/field.js'
import type { FieldValue, Values } from '../../../core/fields/item.js'
import type { NewInvoice, RaisedInvoices } from '../../../core/ports/ledger.js'
import type { Invoice } from '../../../core/fields/entity.js'
import type { RowWriter } from '../dialect/bulk-rows.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { columnType } from '../schema/columns.js'
import { RowCodec } from '../row-codec.js'
import type { WriteAhead } from '../bulk-writes.js'
import { writeJournalLines } from './invoice-journal-lines.js'

const CHUNK = 500
/** Set here for rows inserted on an invoice, whatever the row says. */
const PLACED = ['approved', 'invoiceID', 'billingRunID']

/** Where rows inserted with a run's invoices go: their reserved IDs and, per row, its invoice's ID or null. */
interface Placement {
  readonly ids: readonly bigint[]
  readonly invoiceIDs: readonly unknown[]
  readonly billingRunID: Integer
  /**
   * On draft invoices (contract 16.1): each with its own run (the run's rows name it; their
   * approval gives the others the run). Stored approved all the same: read unapproved while
   * their invoice is a draft (draft-lines.ts).
   */
  readonly draft?: boolean
}

/**
 * Inserts ledger rows with multi-row INSERTs, each row encoded straight into the statement's
 * parameters by a function written out for its columns (see `fieldWriter`): an object per row on
 * the way cost a tenth of a billing run, and then an array per row, filled through a list of
 * encoders and copied again into the parameters, was most of what a billing run allocated
 * outside its planning (bench/billing-run.ts). With a placement, rows carry their reserved IDs,
 * and those on an invoice go in approved and on it.
 */
export async function insertLedgerRows(db: Db, dialect: DatabaseDialect, inserts: readonly Values[], placed?: Placement, send?: WriteAhead): Promise<void> {
  if (inserts.length === 0) return
  const codec = new RowCodec(catalogue.transactions, dialect)
  const fields = storedFields(inserts).filter((f) => !placed || !PLACED.includes(f.name))
  const byName = catalogue.transactions.byName
  const columns = placed ? ['id', ...fields.map((f) => f.name), ...PLACED] : fields.map((f) => f.name)
  const writeFields = fieldWriter(fields, codec, dialect)
  const approved = encoderOf(byName.get('approved')!, codec)
  const billingRun = encoderOf(byName.get('billingRunID')!, codec)
  const rows: RowWriter = placed
    ? {
        length: inserts.length,
        write(i, into, at) {
          const v = inserts[i]
          const invoice = placed.invoiceIDs[i]
          const end = at + 1 + fields.length
          into[at] = dialect.encodeBigint(placed.ids[i])
          writeFields(v, into, at + 1)
          const onFinal = invoice != null && !placed.draft
          into[end] = invoice != null ? 1 : approved(v.approved ?? false)
          into[end + 1] = invoice ?? null
          into[end + 2] = onFinal ? placed.billingRunID : billingRun(v.billingRunID)
        },
      }
    : { length: inserts.length, write: (i, into, at) => writeFields(inserts[i], into, at) }
  const types = new Map(fields.map((f) => [f.name, columnType(f, dialect)]))
  const typed = columns.map((name) => ({ name, type: name === 'id' ? dialect.idRefType : (types.get(name) ?? columnType(byName.get(name)!, dialect)) }))
  await dialect.bulkInsert(db, 'transactions', typed, rows, { send })
}

/** The codec's encoding of one field, as a function of the value alone (undefined is null, as in the codec). */
function encoderOf(f: Field, codec: RowCodec): (value: FieldValue | undefined) => unknown {
  if (PLAIN.has(f.type)) return (value) => value ?? null
  return (value) => codec.encodeValue(f, value ?? null)
}

/** Field types the driver takes as they are. */
const PLAIN = new Set<Field['type']>(['text', 'number', 'date', 'datetime', 'preset'])

type FieldWriter = (v: Values, into: unknown[], at: number) => void

/** Writers made so far, by dialect and field list: each batch of a run writes the same fields, and a new function would start cold. */
const writers = new WeakMap<DatabaseDialect, Map<string, FieldWriter>>()

/**
 * Writes the fields of a row into `into` from `at`, in order, written out for these fields:
 * one property read by name per column, plain types inline and the rest through their encoder.
 */
function fieldWriter(fields: readonly Field[], codec: RowCodec, dialect: DatabaseDialect): FieldWriter {
  let made = writers.get(dialect)
  if (!made) writers.set(dialect, (made = new Map()))
  const key = fields.map((f) => f.name).join(',')
  let writer = made.get(key)
  if (writer) return writer
  const encoders = fields.map((f) => encoderOf(f, codec))
  // The names are quoted with JSON.stringify, so any field name is a safe literal key.
  const lines = fields.map((f, c) => {
    const value = `v[${JSON.stringify(f.name)}]`
    return `into[at + ${c}] = ${PLAIN.has(f.type) ? `${value} ?? null` : `e[${c}](${value})`}`
  })
  writer = generatedFunction<FieldWriter>({
    name: 'writeFields',
    params: ['v', 'into', 'at'],
    body: lines.join('\n'),
    scope: { e: encoders },
    fallback: (v, into, at) => fields.forEach((f, c) => (into[at + c] = encoders[c](v[f.name]))),
  })
  made.set(key, writer)
  return writer
}

/**
 * The stored fields any of the rows gives, in first-seen order. A row whose keys are those of the
 * row looked at before it, in the same order (rows made by one object literal), is passed over
 * by comparing names, not by looking each one up: a run's million rows have 21 keys each.
 */
function storedFields(inserts: readonly Values[]): Field[] {
  const seen = new Set<string>()
  const fields: Field[] = []
  let last: string[] = []
  for (const v of inserts) {
    let i = 0
    let same = true
    for (const name in v) {
      if (name !== last[i++]) {
        same = false
        break
      }
    }
    if (same && i === last.length) continue
    last = Object.keys(v)
    for (const name in v) {
      if (seen.has(name)) continue
      seen.add(name)
      const f = catalogue.transactions.byName.get(name)
      if (f && !f.computed && name !== 'id') fields.push(f)
    }
  }
  return fields
}

/**
 * A run's invoices for a batch (see `Ledger.raiseInvoices`): IDs reserved for the new rows so
 * each invoice can list them, the invoices inserted, the new rows inserted on them, and the
 * rows already in the ledger put on them. With `send` (a pipelined transaction's `WriteAhead`),
 * the writes are sent together and the invoices returned at once, `written` settling with their
 * answers: the database goes from one write to the next while this process plans the next batch.
 */
export async function raiseRunInvoices(
  db: Db,
  dialect: DatabaseDialect,
  invoices: readonly NewInvoice[],
  billingRunID: string,
  inserts: readonly Values[],
  send?: WriteAhead,
  draft = false,
): Promise<RaisedInvoices> {
  const run = dialect.encodeId(billingRunID)
  const ids = await dialect.reserveIds(db, 'transactions', inserts.length)
  /** Per new row, the ID of the invoice it goes on, or null. */
  const invoiceIDs: unknown[] = new Array(inserts.length).fill(null)
  // Sent ahead, the writes are answered together (`written`); otherwise each is awaited in turn.
  const writes: Promise<unknown>[] = []
  const put = async (write: Promise<unknown>) => void (send ? writes.push(write) : await write)
  let stored: Invoice[] = []
  let newInvoiceIds: bigint[] = []
  if (invoices.length) {
    // The invoices' IDs are reserved too, so the rows know them without the insert returning anything.
    newInvoiceIds = await dialect.reserveIds(db, 'invoices', invoices.length)
    const codec = new RowCodec(catalogue.invoices, dialect)
    stored = invoices.map((i, n) => ({ id: String(newInvoiceIds[n]), ...i.values, transactionIDs: [...i.transactionIDs, ...i.inserted.map((k) => String(ids[k]))] }) as Invoice)
    const encoded = stored.map((values) => codec.encode(values))
    const names = Object.keys(encoded[0])
    const columns = [{ name: 'id', type: dialect.idRefType }, ...names.map((name) => ({ name, type: columnType(catalogue.invoices.byName.get(name)!, dialect) }))]
    const rows = encoded.map((r, n) => [dialect.encodeBigint(newInvoiceIds[n]), ...names.map((name) => r[name] ?? null)])
    await put(dialect.bulkInsert(db, 'invoices', columns, rows, { send }))
    invoices.forEach((invoice, n) => {
      const id = dialect.encodeBigint(newInvoiceIds[n])
      for (const k of invoice.inserted) invoiceIDs[k] = id
    })
  }
  await put(insertLedgerRows(db, dialect, inserts, { ids, invoiceIDs, billingRunID: run, draft }, send))
  // Rows already in the ledger go on their customer's invoice of this run (unique by run and customer).
  const existing = invoices.flatMap((i) => i.transactionIDs)
  for (let i = 0; i < existing.length; i += CHUNK) {
    const update = db
      .updateTable('transactions')
      .set((eb) => ({
        // A draft's rows keep their run until it is approved (contract 16.1); stored approved,
        // they read unapproved while the invoice is a draft (draft-lines.ts).
        ...(draft ? { approved: 1 } : { approved: 1, billingRunID: run }),
        invoiceID: eb
          .selectFrom('invoices')
          .select('invoices.id')
          .where('invoices.billingRunID', '=', run)
          .whereRef('invoices.customerID', '=', 'transactions.customerID'),
      }))
      .where('id', 'in', existing.slice(i, i + CHUNK).map((x) => dialect.encodeId(x)))
    await put(send ? send(update.compile()) : update.execute())
  }
  // Their journal lines, once every row is on them: the journal reads them as written.
  if (newInvoiceIds.length) {
    const lines = writeJournalLines(dialect, newInvoiceIds)
    await put(send ? send(lines.compile(db)) : lines.execute(db))
  }
  const written = Promise.all(writes).then(() => undefined)
  // Failed, it is thrown where the caller awaits it; a rejection nobody awaits yet would end the process.
  written.catch(() => undefined)
  return { invoices: stored, written }
}
