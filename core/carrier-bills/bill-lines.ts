import { parseDate, type DateOnly } from '../dates/date-only.js'
import { BillingError, quoted } from '../errors.js'
import { unstorableReason } from '../fields/storable-text.js'
import { LARGEST_AMOUNT, MAX_MONEY, parseMoney, withinMoneyBound, type Money } from '../money/money.js'
import type { BillLine } from '../ports/carrier-data.js'

/** One CSV record with the line it starts on, as the CSV adapter reads it. */
export interface CsvLine {
  readonly fields: readonly string[]
  readonly line: number
}

/** A line of a carrier's bill, checked: the port's type, which stores it. */
export type { BillLine }

const columns = ['productCode', 'reference', 'description', 'quantity', 'cost', 'periodFrom', 'periodTo'] as const
type Column = (typeof columns)[number]
const required: readonly Column[] = ['productCode', 'reference', 'cost']
const QUANTITY = /^\d{1,9}(?:\.\d{1,4})?$/
const MAX_TEXT = 500

/**
 * The lines of a carrier's bill CSV (contract 17.4), `size` at a time as they are read: a header
 * naming `productCode`, `reference`, `cost` and optionally `description`, `quantity`,
 * `periodFrom`, `periodTo` (any order, case ignored), then a line per charge. A bad line throws
 * `invalid_field` naming it; a caller that stored earlier pages undoes them (one transaction).
 * A line has the header's fields: more is refused (an unquoted `1,234.56` would otherwise be
 * read as a cost of 1), and fewer too unless only optional columns at the end are left out
 * (`SIP,R1,4.00` under `productCode,reference,cost,description`). A period ends on or after it starts.
 * A cost, and the bill's charges and its credits each added up, stay within `MAX_MONEY`: every
 * total the bill stores sums some of its lines, so none can pass what a money column holds.
 */
export async function* billLinePages(lines: AsyncIterable<readonly CsvLine[]>, size: number): AsyncGenerator<BillLine[]> {
  let out: BillLine[] = []
  let positions: Header | null = null
  let charges = 0n
  let credits = 0n
  for await (const batch of lines) {
    for (const { fields, line } of batch) {
      if (fields.every((f) => f.trim() === '')) continue
      if (!positions) {
        positions = header(fields, line)
        continue
      }
      const read = row(positions, fields, line)
      if (read.cost > 0n) charges += read.cost
      else credits -= read.cost
      if (charges >= MAX_MONEY || credits >= MAX_MONEY) {
        const what = charges >= MAX_MONEY ? 'charges' : 'credits'
        throw new BillingError('invalid_field', `line ${line}: the bill's ${what} add up to more than ${LARGEST_AMOUNT} by this line`, `A bill's charges, and its credits, each come to less than ${LARGEST_AMOUNT}: correct its costs and send it again, or send it in parts. Nothing of it was kept.`)
      }
      out.push(read)
      if (out.length >= size) {
        yield out
        out = []
      }
    }
  }
  if (!positions) throw new BillingError('invalid_field', 'the bill is empty: expected a header line', `Start the file with a header line: ${columns.join(',')}.`)
  if (out.length > 0) yield out
}

function row(positions: Header, fields: readonly string[], line: number): BillLine {
  const fail = (reason: string): never => {
    throw new BillingError('invalid_field', `line ${line}: ${reason}`, `Correct line ${line} and send the whole bill again: nothing of it was kept.`)
  }
  if (fields.length > positions.width || fields.length < positions.needed) fail(`expected ${positions.width} fields, found ${fields.length}`)
  const at = (c: Column) => {
    const v = positions[c] === undefined ? '' : (fields[positions[c]!] ?? '').trim()
    if (v.length > MAX_TEXT) fail(`${c} is longer than ${MAX_TEXT} characters`)
    const why = unstorableReason(v)
    return why ? fail(`${c} ${why}`) : v
  }
  const costText = at('cost')
  const quantityText = at('quantity')
  const date = (c: 'periodFrom' | 'periodTo') => {
    const v = at(c)
    return v ? (parseDate(v) ?? fail(`${c} ${quoted(v)} is not a date YYYY-MM-DD`)) : null
  }
  const periodFrom = date('periodFrom')
  const periodTo = date('periodTo')
  if (periodFrom !== null && periodTo !== null && periodFrom > periodTo) fail(`periodFrom ${periodFrom} is after periodTo ${periodTo}`)
  return {
    line,
    productCode: at('productCode') || fail('productCode is empty'),
    reference: at('reference') || fail('reference is empty'),
    description: at('description') || null,
    quantity: quantityText ? (QUANTITY.test(quantityText) ? Number(quantityText) : fail(`quantity ${quoted(quantityText)} is not a non-negative number`)) : null,
    cost: cost(costText, fail),
    periodFrom,
    periodTo,
  }
}

/** A line's cost: an amount with up to 4 decimals, within `MAX_MONEY` as the API's amounts are. */
function cost(text: string, fail: (reason: string) => never): Money {
  const m = (text ? parseMoney(text) : null) ?? fail(`cost ${quoted(text)} is not an amount with up to 4 decimals`)
  return withinMoneyBound(m) ? m : fail(`cost ${quoted(text)} is beyond the largest amount accepted (${LARGEST_AMOUNT} either way)`)
}

/** Where each column is, how many fields a line has, and how many of them it needs: through the last required column. */
type Header = Partial<Record<Column, number>> & { readonly width: number; readonly needed: number }

function header(fields: readonly string[], line: number): Header {
  const byName = new Map<string, Column>(columns.map((c) => [c.toLowerCase(), c]))
  const positions: Partial<Record<Column, number>> = {}
  const fail = (reason: string): never => {
    throw new BillingError('invalid_field', `line ${line}: ${reason}`, `Columns: ${columns.join(', ')}.`)
  }
  fields.forEach((raw, i) => {
    const name = (i === 0 ? raw.replace(/^\uFEFF/, '') : raw).trim()
    const column = byName.get(name.toLowerCase()) ?? fail(`unknown column ${quoted(name)}`)
    if (positions[column] !== undefined) fail(`column "${column}" appears twice`)
    positions[column] = i
  })
  const missing = required.filter((c) => positions[c] === undefined)
  if (missing.length) fail(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  return { ...positions, width: fields.length, needed: Math.max(...required.map((c) => positions[c]!)) + 1 }
}
