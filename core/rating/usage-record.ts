import { parseDate } from '../dates/date-only.js'
import { parseDatetime, type Stamp } from '../dates/stamp.js'
import { BillingError, quoted } from '../errors.js'
import { callClasses, type CallClass } from '../fields/call-classes.js'
import { originations, type Origination } from '../fields/originations.js'
import { LARGEST_AMOUNT, parseMoney, withinMoneyBound, type Money } from '../money/money.js'
import { digits } from './time-band.js'

/**
 * The columns of a usage file (`POST /usageFiles/`, `text/csv`). The first line is a header
 * naming the columns, in any order; names are matched ignoring case; an unknown or repeated
 * name rejects the file. Values are trimmed.
 *
 * Required:
 * - `callingNumber`  the A party (who called). May be empty (withheld) on inbound calls.
 * - `dialledNumber`  the B party (who was called). May be empty on outbound calls only.
 * - `startTime`      `YYYY-MM-DDTHH:mm:ss`, optional fraction and `Z` / `±HH:mm`; UTC when no
 *                    designator. Time bands and rate dates are taken from it in UTC.
 * - `durationSeconds` non-negative seconds, up to 3 decimals (`0` for data and event records).
 * - `carrier`        the carrier the record came from.
 *
 * Optional (the column may be absent, or the value empty):
 * - `chargeBand`     the call type the rates are looked up by (tariff detail `chargeBand`).
 * - `callClass`      one of `inbound`, `national`, `mobile`, `nongeographic`, `serviceNumbers`,
 *                    `international`, `extendedInternational`, `surcharges`, `bespoke1`,
 *                    `bespoke2` (or the label, e.g. `Non-Geographic`; case, spaces and dashes
 *                    ignored). `inbound` calls belong to the dialled number, every other class
 *                    to the calling number.
 *                    A record without either takes what it lacks from the destination table's
 *                    longest prefix of its dialled number (contract 17.2); until then it is
 *                    an outbound record, its calling number's.
 * - `bytes`          data volume, a whole number (needed by `Per MB` tariffs).
 * - `events`         event count, a whole number (needed by `Per Event` tariffs).
 * - `origination`    `fixed` (default), `mobile`, `payphone` or `voip`: mobile and payphone
 *                    origination surcharges apply.
 * - `recorded`       call recording: `true`/`false`, `yes`/`no`, `y`/`n`, `1`/`0` (default false).
 * - `externalID`     the carrier's own record ID; with `carrier`, identifies the record for
 *                    de-duplication when present.
 * - `wholesaleCost`  what the carrier charged, in pounds (up to 4 decimals, less than
 *                    `MAX_MONEY` either way, as the API's amounts); priced with the markup
 *                    fallbacks when the tariff has no rate.
 */
export const usageColumns = [
  'callingNumber',
  'dialledNumber',
  'startTime',
  'durationSeconds',
  'chargeBand',
  'callClass',
  'carrier',
  'bytes',
  'events',
  'origination',
  'recorded',
  'externalID',
  'wholesaleCost',
] as const
export type UsageColumn = (typeof usageColumns)[number]

export const requiredUsageColumns: readonly UsageColumn[] = ['callingNumber', 'dialledNumber', 'startTime', 'durationSeconds', 'carrier']

export { originations, type Origination } from '../fields/originations.js'

/** One call, data or event record of a usage file, validated. */
export interface UsageRecord {
  /** Physical line of the file (the header is line 1). Not part of the record's identity. */
  readonly lineNumber: number
  readonly callingNumber: string
  readonly dialledNumber: string
  readonly startTime: Stamp
  readonly durationSeconds: number
  readonly chargeBand: string
  readonly callClass: CallClass
  readonly carrier: string
  readonly bytes: number | null
  readonly events: number | null
  readonly origination: Origination
  readonly recorded: boolean
  readonly externalID: string | null
  readonly wholesaleCost: Money | null
  /**
   * The file left out `chargeBand` or `callClass` (or both): what it lacks comes from the
   * destination table (`resolveDestinations`) before the record is rated. Until then a missing
   * class reads `national` (an outbound record, matched by its calling number) and a missing
   * band is empty.
   */
  readonly lookUpDestination?: 'chargeBand' | 'callClass' | 'both' | null
}

/** Where each column is in a row, from the header line. */
export interface UsageHeader {
  readonly positions: Readonly<Partial<Record<UsageColumn, number>>>
  readonly width: number
}

const MAX_VALUE_LENGTH = 1000
/**
 * No record starts before this (UTC): a year so early is a misread one (`0026`, a two-digit year
 * written where four were meant), and rated and billed it would be a call of the wrong century.
 */
const EARLIEST_START = '1900-01-01T00:00:00.000Z'
const SECONDS = /^\d{1,9}(?:\.\d{1,3})?$/
const COUNT = /^\d{1,15}$/
const squash = (s: string) => s.toLowerCase().replace(/[\s\-_]/g, '')
const classByName = new Map<string, CallClass>(callClasses.flatMap((c) => [[squash(c.key), c.key], [squash(c.label), c.key]]))
const flags = new Map([['true', true], ['yes', true], ['y', true], ['1', true], ['false', false], ['no', false], ['n', false], ['0', false]])

const validDates = new Map<string, boolean>()

/**
 * `parseDatetime`, with a quicker path for the form carriers send (`YYYY-MM-DDTHH:mm:ss`, `Z`
 * or no designator: UTC, whole seconds), whose stamp is the text itself: the general parse
 * builds a Date for every record. Each distinct date is checked once.
 */
export function parseStartTime(text: string): Stamp | null {
  const z = text.length === 20 && text.charCodeAt(19) === 90 // 'Z'
  if ((text.length !== 19 && !z) || !isSimpleDatetime(text)) return parseDatetime(text)
  const date = text.slice(0, 10)
  let valid = validDates.get(date)
  if (valid === undefined) {
    valid = parseDate(date) !== null
    if (validDates.size >= 10_000) validDates.clear()
    validDates.set(date, valid)
  }
  if (!valid) return null
  return digits(text, 11, 2) <= 23 && digits(text, 14, 2) <= 59 && digits(text, 17, 2) <= 59 ? (`${text.slice(0, 19)}.000Z` as Stamp) : null
}

/** `dddd-dd-ddTdd:dd:dd`. */
function isSimpleDatetime(t: string): boolean {
  for (let i = 0; i < 19; i++) {
    const c = t.charCodeAt(i)
    const want = i === 4 || i === 7 ? 45 : i === 10 ? 84 : i === 13 || i === 16 ? 58 : -1 // - T :
    if (want >= 0 ? c !== want : c < 48 || c > 57) return false
  }
  return true
}


/** Reads the header line's fields; throws `invalid_field` for unknown, repeated or missing columns. */
export function parseUsageHeader(fields: readonly string[], lineNumber = 1): UsageHeader {
  const fail = (reason: string): never => {
    throw new BillingError('invalid_field', `line ${lineNumber}: ${reason}`, `Columns: ${usageColumns.join(', ')}.`)
  }
  if (fields.length === 1) {
    const separator = [';', '\t', '|'].find((c) => fields[0].includes(c))
    if (separator) {
      const name = separator === '\t' ? 'tabs' : `"${separator}"`
      throw new BillingError(
        'invalid_field',
        `line ${lineNumber}: the header is one column holding ${name}: the file looks separated by ${name}, not by commas`,
        `Export the file as comma-separated CSV (RFC 4180), quoting fields that hold commas. Columns: ${usageColumns.join(', ')}.`,
      )
    }
  }
  const byName = new Map(usageColumns.map((c) => [c.toLowerCase(), c]))
  const positions: Partial<Record<UsageColumn, number>> = {}
  fields.forEach((raw, i) => {
    const name = (i === 0 ? raw.replace(/^\uFEFF/, '') : raw).trim()
    const column = byName.get(name.toLowerCase())
    if (!column) fail(`unknown column ${quoted(name)}`)
    else if (positions[column] !== undefined) fail(`column "${column}" appears twice`)
    else positions[column] = i
  })
  const missing = requiredUsageColumns.filter((c) => positions[c] === undefined)
  if (missing.length) fail(`missing required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  return { positions, width: fields.length }
}

/** Validates one data row against the header; throws `invalid_field` naming the line and the reason. */
export function parseUsageRow(header: UsageHeader, fields: readonly string[], lineNumber: number): UsageRecord {
  // Helpers at module level, given the row: closures over it made four functions a record.
  if (fields.length !== header.width) rowFails(lineNumber, `expected ${header.width} fields, found ${fields.length}`)
  const startText = required(header, fields, 'startTime', lineNumber)
  const startTime = parseStartTime(startText) ?? rowFails(lineNumber, `startTime ${quoted(startText)} is not YYYY-MM-DDTHH:mm:ss (optional Z or ±HH:mm)`)
  if (startTime < EARLIEST_START) rowFails(lineNumber, `startTime ${quoted(startText)} is before 1900: no call is that old`)
  const durationText = required(header, fields, 'durationSeconds', lineNumber)
  if (!SECONDS.test(durationText)) rowFails(lineNumber, `durationSeconds ${quoted(durationText)} is not a non-negative number of seconds (up to 3 decimals)`)
  const classText = value(header, fields, 'callClass', lineNumber)
  const callClass = classText
    ? (classByName.get(classText) ?? classByName.get(squash(classText)) ?? rowFails(lineNumber, `callClass ${quoted(classText)} is not one of ${callClasses.map((c) => c.key).join(', ')}`))
    : 'national'
  const chargeBand = value(header, fields, 'chargeBand', lineNumber)
  const originValue = value(header, fields, 'origination', lineNumber)
  const originText = originValue.toLowerCase() || 'fixed'
  const origination = (originations as readonly string[]).includes(originText)
    ? (originText as Origination)
    : rowFails(lineNumber, `origination ${quoted(originValue)} is not one of ${originations.join(', ')}`)
  const recordedValue = value(header, fields, 'recorded', lineNumber)
  const recorded = flags.get(recordedValue.toLowerCase() || 'false') ?? rowFails(lineNumber, `recorded ${quoted(recordedValue)} is not true or false`)
  const costText = value(header, fields, 'wholesaleCost', lineNumber)
  const wholesaleCost = costText ? moneyOf(costText, 'wholesaleCost', lineNumber) : null

  const callingNumber = value(header, fields, 'callingNumber', lineNumber)
  const dialledNumber = value(header, fields, 'dialledNumber', lineNumber)
  if (callClass === 'inbound' && !dialledNumber) rowFails(lineNumber, 'dialledNumber is empty on an inbound record')
  if (callClass !== 'inbound' && !callingNumber) rowFails(lineNumber, 'callingNumber is empty on an outbound record')
  const lookUp = !classText ? (!chargeBand ? 'both' : 'callClass') : !chargeBand ? 'chargeBand' : null
  if (lookUp && !dialledNumber) rowFails(lineNumber, 'dialledNumber is empty, and chargeBand or callClass must be looked up from it')

  return {
    lineNumber,
    callingNumber,
    dialledNumber,
    startTime,
    durationSeconds: Number(durationText),
    chargeBand,
    callClass,
    carrier: required(header, fields, 'carrier', lineNumber),
    bytes: count(header, fields, 'bytes', lineNumber),
    events: count(header, fields, 'events', lineNumber),
    origination,
    recorded,
    externalID: value(header, fields, 'externalID', lineNumber) || null,
    wholesaleCost,
    lookUpDestination: lookUp,
  }
}

function rowFails(lineNumber: number, reason: string): never {
  throw new BillingError('invalid_field', `line ${lineNumber}: ${reason}`, `Correct line ${lineNumber} and send the whole file again: nothing of it was kept. The README's "Usage files" section gives each column's format.`)
}


/** An amount of the record, within `MAX_MONEY` as the API's amounts are: a larger one could not be stored nor summed. */
function moneyOf(text: string, c: UsageColumn, lineNumber: number): Money {
  const m = parseMoney(text) ?? rowFails(lineNumber, `${c} ${quoted(text)} is not an amount with up to 4 decimals`)
  return withinMoneyBound(m) ? m : rowFails(lineNumber, `${c} ${quoted(text)} is beyond the largest amount accepted (${LARGEST_AMOUNT} either way)`)
}

/** A column's value, trimmed; empty when the file has no such column. */
function value(header: UsageHeader, fields: readonly string[], c: UsageColumn, lineNumber: number): string {
  const at = header.positions[c]
  const v = at === undefined ? '' : fields[at].trim()
  if (v.length > MAX_VALUE_LENGTH) rowFails(lineNumber, `${c} is longer than ${MAX_VALUE_LENGTH} characters`)
  return v
}

const required = (header: UsageHeader, fields: readonly string[], c: UsageColumn, lineNumber: number): string =>
  value(header, fields, c, lineNumber) || rowFails(lineNumber, `${c} is empty`)

function count(header: UsageHeader, fields: readonly string[], c: UsageColumn, lineNumber: number): number | null {
  const v = value(header, fields, c, lineNumber)
  if (!v) return null
  return COUNT.test(v) ? Number(v) : rowFails(lineNumber, `${c} ${quoted(v)} is not a whole non-negative number`)
}
