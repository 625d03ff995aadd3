import { sql, type Kysely } from 'kysely'

const stamp = `'2026-01-01T09:00:00.000Z'`
/** The lifecycle columns a seeded row needs, and their values: active since 2026-01-01. */
export const lifeColumns = `"status", "statusChangedStamp", "isDropped", "isSuspended", "isBillable", "createdStamp", "updatedStamp"`
export const lifeValues = `'Active', '2026-01-01', 0, 0, 1, ${stamp}, ${stamp}`

/**
 * `customers` customers (IDs 1 to `customers`) with three numbers each (IDs 1 to 3 × `customers`,
 * numbers 0100000001 up, their `numberKey` set as an import looks them up), written by Postgres
 * itself: a plan test needs thousands of rows, which the API would take minutes to make.
 */
export async function seedCustomersAndNumbers(db: Kysely<any>, customers: number): Promise<void> {
  const number = `'0' || lpad((100000000 + g)::text, 10, '0')`
  await sql
    .raw(
      `insert into customers (id, "accountNumber", "lastname", "VATRate", "isFinalBill", "enteredDate", ${lifeColumns})
       select g, 'ACC' || lpad(g::text, 8, '0'), 'Last' || g, 'Standard 20%', 0, '2026-01-01', ${lifeValues} from generate_series(1, ${customers}) g`,
    )
    .execute(db)
  await sql
    .raw(
      `insert into numbers (id, "customerID", "number", "numberDigits", "numberKey", "numberType", ${lifeColumns})
       select g, (g + 2) / 3, ${number}, ${number}, ${number}, 'Geographic', ${lifeValues} from generate_series(1, ${customers * 3}) g`,
    )
    .execute(db)
}
