import { parseDate } from '../dates/date-only.js'
import { parseDatetime } from '../dates/stamp.js'
import { BillingError, quoted } from '../errors.js'
import type { Resource } from '../fields/resource.js'
import { isStorableText } from '../fields/storable-text.js'
import type { Condition } from '../ports/resource-repository.js'

export const DEFAULT_LIMIT = 100
export const MAX_LIMIT = 1000

/** Query parameters as they arrive: a name may repeat. */
export type RawParams = Readonly<Record<string, string | readonly string[] | undefined>>

/** A list request after strict validation. */
export interface ListRequest {
  readonly where: Condition[]
  readonly limit: number
  readonly offset: number
  readonly idAfter?: string
  /** Flags the route allows beyond filters (expansions, includeNumbers, ...), given as true. */
  readonly flags: ReadonlySet<string>
  /** Whether a search by a unique field was made: the answer is one item or none. */
  readonly uniqueSearch: boolean
}

const pagingParams = ['limit', 'offset', 'idAfter', 'createdSince', 'updatedSince'] as const

/** The names a list route accepts: paging, the resource's filters, and the route's extra flags. */
export function acceptedParams(resource: Resource, extraFlags: readonly string[] = []): string[] {
  return [...pagingParams, ...resource.filters.map((f) => f.name), ...extraFlags]
}

/**
 * Validates list parameters strictly (unknown name, malformed value, limit outside 1..1000 →
 * `invalid_query`) and turns the resource's filters into storage conditions.
 */
export function parseListRequest(resource: Resource, params: RawParams, extraFlags: readonly string[] = []): ListRequest {
  const where: Condition[] = []
  const flags = new Set<string>()
  let limit = DEFAULT_LIMIT
  let offset = 0
  let idAfter: string | undefined
  let uniqueSearch = false
  for (const [name, raw] of Object.entries(params)) {
    if (raw === undefined) continue
    if (Array.isArray(raw) && raw.length !== 1) throw repeatedQuery(name)
    const value = (Array.isArray(raw) ? raw[0] : raw) as string
    // Searched for literally: a value no column can hold is refused, not sent to the database.
    if (!isStorableText(value)) throw invalid(name, 'contains a NUL character')
    switch (name) {
      case 'limit':
        limit = integer(name, value, 1, MAX_LIMIT)
        continue
      case 'offset':
        offset = integer(name, value, 0, Number.MAX_SAFE_INTEGER)
        continue
      case 'idAfter':
        idAfter = String(integer(name, value, 0, Number.MAX_SAFE_INTEGER))
        continue
      case 'createdSince':
      case 'updatedSince':
        where.push({ op: 'gte', column: name === 'createdSince' ? 'createdStamp' : 'updatedStamp', value: datetime(name, value) })
        continue
    }
    if (extraFlags.includes(name)) {
      if (flag(name, value)) flags.add(name)
      continue
    }
    const filter = resource.filters.find((f) => f.name === name)
    if (!filter) throw unknown(resource, name, extraFlags)
    const kind = filter.filter
    switch (kind.kind) {
      case 'equals':
        // An ID column holds only IDs: anything else is refused here, never sent to the database.
        if (resource.byName.get(kind.column)?.type === 'id' && !isIdText(value)) throw invalid(name, 'must be an ID (a positive whole number)')
        where.push({ op: 'eq', column: kind.column, value })
        if (resource.byName.get(kind.column)?.unique) uniqueSearch = true
        break
      case 'oneOf':
        if (!kind.values.includes(value)) throw invalid(name, `must be one of ${kind.values.join(', ')}`)
        where.push({ op: 'eq', column: kind.column, value })
        break
      case 'hasName':
        if (value !== kind.any && !kind.values.includes(value)) throw invalid(name, `must be ${kind.any} or one of ${kind.values.join(', ')}`)
        where.push({ op: 'hasName', column: kind.column, value: value === kind.any ? null : value })
        break
      case 'digits':
        where.push({ op: 'eq', column: `${kind.column}Digits`, value: digitsOnly(value) })
        uniqueSearch = true
        break
      case 'flag':
        if (flag(name, value)) where.push({ op: 'eq', column: kind.column, value: kind.value })
        break
      case 'since':
        where.push({ op: 'gte', column: kind.column, value: datetime(name, value) })
        break
      case 'value':
        if (kind.type === 'boolean') {
          if (value !== 'true' && value !== 'false') throw invalid(name, 'must be true or false')
          where.push({ op: 'eq', column: kind.column, value: value === 'true' })
        } else {
          const d = parseDate(value)
          if (!d) throw invalid(name, 'must be a date YYYY-MM-DD')
          where.push({ op: kind.type === 'date-from' ? 'gte' : 'lte', column: kind.column, value: d })
        }
        break
    }
  }
  return { where, limit, offset, idAfter, flags, uniqueSearch }
}

/** An ID as the API writes it (as field validation accepts it). */
const ID_TEXT = /^[1-9]\d{0,15}$/
/** Whether a query parameter's value is an ID as the API writes it. */
export const isIdText = (value: string): boolean => ID_TEXT.test(value)

/** Removes spaces and dashes, so formatted numbers match the plain digits. */
export const digitsOnly = (s: string): string => s.replace(/[\s-]/g, '')

function flag(name: string, value: string): boolean {
  if (value === '' || value === 'true') return true
  if (value === 'false') return false
  throw invalid(name, 'is a flag: give it bare, as true, or as false')
}

function integer(name: string, value: string, min: number, max: number): number {
  if (!/^\d{1,16}$/.test(value)) throw invalid(name, `must be an integer from ${min} to ${max}`)
  const n = Number(value)
  if (n < min || n > max) throw invalid(name, `must be an integer from ${min} to ${max}`)
  return n
}

function datetime(name: string, value: string): string {
  const s = parseDatetime(value)
  if (!s) throw invalid(name, 'must be a datetime YYYY-MM-DDTHH:mm:ss with optional fraction and Z or ±HH:MM')
  return s
}

/**
 * A query parameter given more than once (`?limit=1&limit=2`): refused by lists and every other
 * route alike, since answering with one of the two values would be a guess.
 */
export const repeatedQuery = (name: string): BillingError => invalid(name, 'is given more than once')

function invalid(name: string, why: string): BillingError {
  return new BillingError('invalid_query', `Query parameter ${quoted(name)} ${why}`, `Correct or remove ${quoted(name)}.`)
}

function unknown(resource: Resource, name: string, extraFlags: readonly string[]): BillingError {
  const accepted = acceptedParams(resource, extraFlags)
  return new BillingError(
    'invalid_query',
    `Unknown query parameter ${quoted(name)}`,
    `Accepted parameters: ${accepted.join(', ')}. Names are case-sensitive.`,
  )
}
