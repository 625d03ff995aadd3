import { sql } from 'kysely'
import { callClasses, customerDefault, type CallClass } from '../../../core/fields/call-classes.js'
import type { BatchNumbers } from '../../../core/ports/rating-data.js'
import { CDR_TERM_COLUMNS, directionOfFlag } from '../../../core/rating/cdr-number-terms.js'
import { normaliseNumber } from '../../../core/rating/phone-number.js'
import type { RatingNumber } from '../../../core/rating/rate-record.js'
import type { CustomerTariffSettings } from '../../../core/rating/select-tariff.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { compareIds } from '../id-order.js'
import { anyTables, type Db } from '../schema/tables.js'
import { creditWatched } from './kysely-credit-control.js'

// `numberKey` is the covering index's key: read with the row, it spares normalising `number` again (NumberEntry).
const matchColumns = ['id', 'customerID', 'number', 'numberKey', 'CDRNumber', 'CDRNumber2', 'CDRNumber3', 'CDRNumber4', 'fallbackMarkup', 'carrierCallAllocation']
const MATCHED_BY = ['number', 'CDRNumber', 'CDRNumber2', 'CDRNumber3', 'CDRNumber4'] as const
const matchKeys = MATCHED_BY.map((f) => `${f}Key`)
/** Keys or IDs in one rating statement's IN list (here and in kysely-rating-data.ts). */
export const IN_CHUNK = 10_000
const CUSTOMER_ID = 'c_id'
const CREDIT_WATCHED = 'c_creditWatched'
const creditWatchedSql = sql<number>`case when ${creditWatched('c')} then 1 else 0 end`

/** A joined row's columns for some call classes: the number's, then its customer's as `c_…` (the tables share some names). */
interface JoinedShape {
  readonly select: any[]
  /** The number's rating columns besides its ID and customer's. */
  readonly settings: readonly string[]
  /** Each customer column with its alias. */
  readonly customer: readonly (readonly [string, string])[]
}

const shapes = new Map<string, JoinedShape>()

/**
 * The columns rating reads for these classes only: a row of every class's tariffs and markups
 * (51 columns) took twice as long to read as one of a class's (bench/rating.ts, RESULTS), and a
 * file's records are mostly of a few classes. One shape per set of classes, made once. With
 * `cdrTerms`, also the CDR numbers' direction, origination and band (`CdrNumberTerms`): read by
 * the lookups by a `CDRNumber..Key`, whose indexes do not cover the row anyway, and left out of
 * the covering index's lookup by `numberKey`.
 */
export function joinedShape(classes: readonly CallClass[], cdrTerms = false): JoinedShape {
  const key = `${[...new Set(classes)].sort().join(',')}${cdrTerms ? '+terms' : ''}`
  let shape = shapes.get(key)
  if (!shape) {
    const used = callClasses.filter((c) => classes.includes(c.key))
    const numberColumns = [...matchColumns, ...(cdrTerms ? CDR_TERM_COLUMNS : []), ...used.flatMap((c) => [c.tariff, c.markup])]
    const customer = ['fallbackMarkup', 'carrierCallAllocation', ...used.flatMap((c) => [customerDefault(c.tariff), customerDefault(c.markup)])].map((c) => [c, `c_${c}`] as const)
    shape = {
      select: [...numberColumns.map((c) => `n.${c}`), sql.ref('c.id').as(CUSTOMER_ID), ...customer.map(([c, as]) => sql.ref(`c.${c}`).as(as)), creditWatchedSql.as(CREDIT_WATCHED)],
      settings: numberColumns.filter((c) => c !== 'id' && c !== 'customerID'),
      customer,
    }
    shapes.set(key, shape)
  }
  return shape
}

// A literal, not a parameter: SQLite uses a partial index only when the query's own condition is the index's.
const liveJoined = sql<boolean>`"n"."isDropped" = 0`

/**
 * Live numbers whose `key` column is one of `keys`, with their customers: read from the covering
 * indexes migration 0020 made for this statement, not from the wide rows (bench/RESULTS.md).
 */
export function numberLookup(db: Db, dialect: DatabaseDialect, key: string, keys: readonly string[], shape: Pick<JoinedShape, 'select'>) {
  return anyTables(db)
    .selectFrom('numbers as n')
    .leftJoin(dialect.throughIndex('customers', 'customers_lookup_idx').as('c'), 'c.id', 'n.customerID')
    .select(shape.select)
    .where(liveJoined)
    .where(dialect.inList(`n.${key}`, keys))
}

/**
 * Live numbers by their canonical `…Key` columns, each looked up in its partial index, joined
 * to their customers: an import reads the numbers of each batch of records instead of every
 * number, whose memory grew with the number of numbers, and reads a number's customer in the
 * same statement rather than in two more lookups by customer ID, one for tariffs and one for
 * credit limits (bench/rating.ts; figures in bench/RESULTS.md).
 * Kept with only their set values: most of a number's 30 rating columns are null, and absent
 * and null read the same to rating.
 */
export async function numbersByKeys(db: Db, dialect: DatabaseDialect, keys: readonly string[], classes: readonly CallClass[]): Promise<BatchNumbers> {
  const shapeByNumber = joinedShape(classes)
  const numbers: RatingNumber[] = []
  // The numbers seen by ID, once a later column is asked: a number matched by two columns is kept once.
  let seen: Map<string, Record<string, unknown>> | null = null
  const customers = new Map<string, CustomerTariffSettings>()
  // Not named creditWatched: that is the imported SQL condition the lookup selects by.
  const watched = new Set<string>()
  // One statement per column, for the keys no column before it matched: a `number` beats a
  // `CDRNumber` (buildNumberIndex), and most records match by `number`, so the later columns
  // are rarely asked at all. (Given an OR of the five columns, SQLite scanned the table.)
  // Repeated keys need removing only across statements: an IN list finds each number once.
  // Sorted: Postgres sorts an `= any` list before its index scan, comparing by the database's
  // collation, and leaves one already in order as it is. A 1,000-key lookup cost its backend
  // 0.4-1.3 µs a key less so, and this process 0.13 (bench/RESULTS.md, session 22).
  let left = (keys.length > IN_CHUNK ? [...new Set(keys)] : [...keys]).sort()
  for (const [i, key] of matchKeys.entries()) {
    if (left.length === 0) break
    const shape = i === 0 ? shapeByNumber : joinedShape(classes, true)
    if (i > 0) seen ??= new Map(numbers.map((n) => [n.numberID, n as unknown as Record<string, unknown>]))
    const matched = new Set<string>()
    for (let at = 0; at < left.length; at += IN_CHUNK) {
      const chunk = left.slice(at, at + IN_CHUNK)
      const rows = await numberLookup(db, dialect, key, chunk, shape).execute()
      for (const r of rows) {
        // Matched by its key, so the number the key was made from is set. A CDR number of one
        // direction leaves its key to the later columns for the other (buildNumberIndex).
        if (i === 0) matched.add(r.numberKey!)
        else if (directionOfFlag(r[`CDRNumberCallTypeDirectionFlag${i === 1 ? '' : i}`]) === null) matched.add(normaliseNumber(r[MATCHED_BY[i]]!))
        const numberID = String(r.id)
        const before = seen?.get(numberID)
        if (before) {
          // Read first by an earlier column, without its CDR numbers' terms.
          for (const c of CDR_TERM_COLUMNS) if (r[c] !== null && r[c] !== undefined) before[c] = r[c]
          continue
        }
        const n = keep(r, shape, numbers)
        seen?.set(numberID, n)
      }
    }
    left = left.filter((k) => !matched.has(k))
  }
  // By ID: among numbers claiming the same digits the first wins (buildNumberIndex).
  numbers.sort((a, b) => compareIds(a.numberID, b.numberID))
  if (left.length > 0) numbers.push(...(await droppedByKeys(db, dialect, left, classes, keep)))
  return { numbers, customers, creditWatched: watched }

  /** A row as a rating number, its customer's settings kept once. */
  function keep(r: Record<string, any>, shape: JoinedShape, into: RatingNumber[]): Record<string, unknown> {
    const n: Record<string, unknown> = { numberID: String(r.id), customerID: String(r.customerID) }
    for (const c of shape.settings) if (r[c] !== null && r[c] !== undefined) n[c] = r[c]
    into.push(n as unknown as RatingNumber)
    if (r[CUSTOMER_ID] === null || customers.has(n.customerID as string)) return n
    const customer: Record<string, unknown> = {}
    for (const [column, as] of shape.customer) if (r[as] !== null && r[as] !== undefined) customer[column] = r[as]
    customers.set(n.customerID as string, customer as CustomerTariffSettings)
    if (Number(r[CREDIT_WATCHED]) === 1) watched.add(n.customerID as string)
    return n
  }
}

// Literal, as `liveJoined`: the partial indexes of migration 0084 hold dropped numbers only.
const droppedOnly = sql<boolean>`"isDropped" = 1`

/**
 * Dropped numbers with any `…Key` one of `keys`, with their customers and drop dates: each key
 * column searched in its partial index of migration 0084 (given an OR of the five, SQLite read
 * every dropped number), then the few rows by ID.
 */
export function droppedLookup(db: Db, dialect: DatabaseDialect, keys: readonly string[], shape: Pick<JoinedShape, 'select'>) {
  return anyTables(db)
    .selectFrom('numbers as n')
    .leftJoin(dialect.throughIndex('customers', 'customers_lookup_idx').as('c'), 'c.id', 'n.customerID')
    .select([...shape.select, 'n.updatedDate'])
    .where(sql<boolean>`"n"."id" in (${sql.join(matchKeys.map((k) => sql`select "id" from "numbers" where ${droppedOnly} and ${dialect.inList(sql.ref(k), keys)}`), sql` union all `)})`)
}

/**
 * Dropped numbers claiming the keys no live number matched (contract 9.6: by `number` or
 * `CDRNumber..4`), each with its drop date (`updatedDate`, the action's `dateDrop`): a file can
 * arrive after a drop with calls made before it, or in a notice period, which are still the
 * number's (`matchNumber`). One statement a chunk of keys, usually never asked: most keys are
 * live numbers'. The most recently dropped first, then by ID: the likeliest owner of a late call
 * when the digits had several.
 */
async function droppedByKeys(db: Db, dialect: DatabaseDialect, keys: readonly string[], classes: readonly CallClass[], keep: (r: Record<string, any>, shape: JoinedShape, into: RatingNumber[]) => Record<string, unknown>): Promise<RatingNumber[]> {
  const shape = joinedShape(classes, true)
  const found: RatingNumber[] = []
  const ids = new Set<string>()
  for (let at = 0; at < keys.length; at += IN_CHUNK) {
    const chunk = keys.slice(at, at + IN_CHUNK)
    const rows = await droppedLookup(db, dialect, chunk, shape).execute()
    for (const r of rows) {
      // Without a drop date, when its service ended is unknown: none of its calls are taken for it.
      if (!r.updatedDate || ids.has(String(r.id))) continue
      ids.add(String(r.id))
      const n = keep(r, shape, found)
      n.droppedDate = r.updatedDate
    }
  }
  return found.sort((a, b) => (a.droppedDate === b.droppedDate ? compareIds(a.numberID, b.numberID) : a.droppedDate! > b.droppedDate! ? -1 : 1))
}
