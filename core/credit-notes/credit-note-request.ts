import { BillingError } from '../errors.js'
import { objectBody } from '../input/object-body.js'
import { parseMoney, round, type Money } from '../money/money.js'
import type { CreditRequest } from './credit-lines.js'

/** A credit note's request body, read: why, and what it credits. */
export interface CreditNoteBody {
  readonly reason: string
  readonly request: CreditRequest
}

const invalid = (message: string, hint: string) => new BillingError('invalid_field', message, hint)
const BODY_HINT = 'Send {"reason": "...", "lines": [{"transactionID": "...", "amount": "..."}]} or {"reason": "...", "amount": "..."}.'
const MAX_LINES = 1000

/** A money field of the body in whole pence (contract 9.1: half up to 2 places), or `invalid_field` naming it. */
function pence(value: unknown, name: string): Money {
  const m = parseMoney(value)
  if (m === null) throw invalid(`Field "${name}" must be an amount with at most 4 decimals (a JSON number or a decimal string)`, 'Give an amount such as "12.50".')
  return round(m, 2)
}

/**
 * Reads `POST /invoices/<id>/creditNotes/` (contract 15.3): a `reason` and either `lines`
 * (each a `transactionID` and an optional `amount`, the whole line when left out) or a net
 * `amount` spread pro rata, not both. Any other property, or a value of the wrong type, is
 * `invalid_field` naming it.
 */
export function readCreditNoteBody(body: unknown): CreditNoteBody {
  const o = objectBody(body, BODY_HINT)
  for (const key of Object.keys(o)) {
    if (key !== 'reason' && key !== 'lines' && key !== 'amount') throw invalid(`Unknown field "${key}" of credit note`, BODY_HINT)
  }
  if (typeof o.reason !== 'string' || o.reason.trim() === '' || o.reason.length > 1000) {
    throw invalid('Field "reason" of credit note is required: a text of 1 to 1000 characters', BODY_HINT)
  }
  if ((o.lines === undefined) === (o.amount === undefined)) throw invalid('Give either field "lines" or field "amount" of credit note, not both and not neither', BODY_HINT)
  if (o.amount !== undefined) return { reason: o.reason.trim(), request: { kind: 'amount', amount: pence(o.amount, 'amount') } }
  if (!Array.isArray(o.lines) || o.lines.length > MAX_LINES) throw invalid(`Field "lines" of credit note must be an array of at most ${MAX_LINES} lines`, BODY_HINT)
  const lines = o.lines.map((line: unknown, i) => {
    const name = `lines[${i}]`
    if (typeof line !== 'object' || line === null || Array.isArray(line)) throw invalid(`Field "${name}" must be an object`, BODY_HINT)
    const l = line as Record<string, unknown>
    for (const key of Object.keys(l)) if (key !== 'transactionID' && key !== 'amount') throw invalid(`Unknown field "${name}.${key}" of credit note`, BODY_HINT)
    const id = l.transactionID
    if (!((typeof id === 'string' && /^[1-9]\d{0,17}$/.test(id)) || (typeof id === 'number' && Number.isSafeInteger(id) && id > 0))) {
      throw invalid(`Field "${name}.transactionID" must be a transaction ID`, "Give the ID of one of the invoice's transactions (its transactionIDs).")
    }
    return { transactionID: String(id), amount: l.amount === undefined || l.amount === null ? null : pence(l.amount, `${name}.amount`) }
  })
  return { reason: o.reason.trim(), request: { kind: 'lines', lines } }
}
