import { internationalDigits } from '../destinations/dialled-number.js'
import { DEFAULT_DESTINATION_TABLE, type DestinationTables } from '../destinations/prefix-table.js'
import { BillingError, quoted } from '../errors.js'
import type { CallClass } from '../fields/call-classes.js'
import { matchNumber } from './match-number.js'
import type { RatingContext } from './rate-record.js'
import type { UsageRecord } from './usage-record.js'
import { recordWith } from './record-with.js'

/** What an import looks destinations up with: the tables, and the country a leading `0` is national to. */
export interface DestinationLookup {
  readonly tables: DestinationTables
  readonly countryCallingCode: string
}

/**
 * Gives each record the file left without `chargeBand` or `callClass` what it lacks, from the
 * longest prefix of its dialled number (contract 17.2) in the table named by the
 * `locationLookupCarrier` of its number's national tariff, else of its customer's default
 * national tariff, else `default` (also when the named carrier has no table). Records that lack
 * nothing come back as they are. A number no prefix matches fails the file, naming its line.
 */
export function resolveDestinations(records: readonly UsageRecord[], context: RatingContext, lookup: DestinationLookup): UsageRecord[] {
  const out: UsageRecord[] = []
  for (const record of records) out.push(record.lookUpDestination ? resolve(record, tableOf(record, context), lookup) : record)
  return out
}

/**
 * `resolveDestinations` when the only table is `default` (or there is none): every record's
 * table is then known without its number, so records are resolved before their batch is looked
 * up, and the lookup reads the tariffs of the classes they resolve to and no others.
 */
export function resolveInDefault(records: readonly UsageRecord[], lookup: DestinationLookup): UsageRecord[] {
  const out: UsageRecord[] = []
  for (const record of records) out.push(record.lookUpDestination ? resolve(record, DEFAULT_DESTINATION_TABLE, lookup) : record)
  return out
}

/** Whether every record's table is `default` whatever its number (`resolveInDefault`). */
export const onlyDefault = (lookup: DestinationLookup): boolean => [...lookup.tables.keys()].every((name) => name === DEFAULT_DESTINATION_TABLE)

function resolve(record: UsageRecord, name: string, lookup: DestinationLookup): UsageRecord {
  const table = lookup.tables.get(name) ?? lookup.tables.get(DEFAULT_DESTINATION_TABLE)
  const digits = internationalDigits(record.dialledNumber, lookup.countryCallingCode)
  const found = digits && table ? table.longestPrefix(digits) : null
  if (!found) {
    const where = table ? `no prefix of destination table ${quoted(table === lookup.tables.get(name) ? name : DEFAULT_DESTINATION_TABLE)} matches it` : `there is no destination table ${quoted(name)} nor ${quoted(DEFAULT_DESTINATION_TABLE)}`
    throw new BillingError(
      'invalid_field',
      `line ${record.lineNumber}: dialledNumber ${quoted(record.dialledNumber)} has no chargeBand or callClass, and ${where}`,
      'Add the prefix to the destination table (POST /destinationTables/<id>/destinations/), or give chargeBand and callClass on the line; then send the whole file again: nothing of it was kept.',
    )
  }
  return recordWith(record, {
    chargeBand: record.lookUpDestination === 'callClass' ? record.chargeBand : found.chargeBand,
    callClass: record.lookUpDestination === 'chargeBand' ? record.callClass : (found.callClass as CallClass),
    origination: record.origination,
    lookUpDestination: null,
  })
}

/** The table named by the national tariff of the record's number, else of its customer; `default` when none is. */
function tableOf(record: UsageRecord, context: RatingContext): string {
  const match = matchNumber(context.numbers, record)
  if (!('number' in match)) return DEFAULT_DESTINATION_TABLE
  const number = match.number
  const customer = context.customers.get(number.customerID)
  const tariffName = number.nationalTariff || customer?.defaultNationalTariff
  const tariff = tariffName ? context.tariffs.get(tariffName) : undefined
  return tariff?.locationLookupCarrier || DEFAULT_DESTINATION_TABLE
}
