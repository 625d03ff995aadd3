import type { DateOnly } from '../dates/date-only.js'
import type { Origination } from '../fields/originations.js'
import { cdrTermsOf, hasOneWayCdrNumber, type CdrNumberTerms, type CdrTerms } from './cdr-number-terms.js'
import { normaliseNumber } from './phone-number.js'
import { dateOfStamp } from './time-band.js'
import type { UsageRecord } from './usage-record.js'

/** What number matching reads of a number; callers may pass richer objects (see `RatingNumber`). */
export interface NumberEntry extends CdrNumberTerms {
  readonly numberID: string
  readonly customerID: string
  readonly number?: string | null
  /** `number` normalised, when the caller has it stored (the rating lookup reads it from its index): then it is not normalised again. */
  readonly numberKey?: string | null
  readonly CDRNumber?: string | null
  readonly CDRNumber2?: string | null
  readonly CDRNumber3?: string | null
  readonly CDRNumber4?: string | null
  /**
   * Set on a dropped number: its drop date, the last day its calls are its own (a late file's
   * calls from before it are still billed; the drop's ignore entries take its own day on).
   */
  readonly droppedDate?: DateOnly | null
}

export const ignoreTrafficTypes = ['All Traffic', 'Outbound Only', 'Inbound Only'] as const
export type IgnoreTrafficType = (typeof ignoreTrafficTypes)[number]

/**
 * Traffic of `number` from `fromDate` (every date when null) until `reinstatedDate` (on, when
 * null or absent) is not billed. An entry a drop made names its number (`numberID`): traffic
 * another live number claims is that number's (see `matchNumber`).
 */
export interface IgnoreTrafficEntry {
  readonly number: string
  readonly type: IgnoreTrafficType
  readonly fromDate: DateOnly | null
  /** The number the drop was of; absent or null, the entry holds for whatever number has the digits. */
  readonly numberID?: string | null
  /** The day its number was reinstated: traffic from then on is billed again. */
  readonly reinstatedDate?: DateOnly | null
}

export type CallDirection = 'inbound' | 'outbound'
export type UnmatchedReason = 'no matching number' | 'ignored traffic'
export type MatchField = 'number' | 'CDRNumber' | 'CDRNumber2' | 'CDRNumber3' | 'CDRNumber4'

/**
 * A number a record matched, by which field, and what that CDR number's terms change in its
 * rating (`CdrTerms`); both null when matched by `number` or a CDR number without them.
 */
export interface NumberHit<N extends NumberEntry> {
  readonly number: N
  readonly matchedBy: MatchField
  readonly chargeBand: string | null
  readonly origination: Origination | null
}

export type NumberMatch<N extends NumberEntry> = NumberHit<N> | { readonly unmatchedReason: UnmatchedReason }

/** Numbers and ignore-traffic entries keyed by normalised number, built once per import or run. */
export interface NumberIndex<N extends NumberEntry> {
  /** The numbers outbound records (by calling number) match. */
  readonly outbound: ReadonlyMap<string, NumberHit<N>>
  /** Those inbound records (by dialled number) match: the same map unless a CDR number is of one direction. */
  readonly inbound: ReadonlyMap<string, NumberHit<N>>
  readonly ignored: ReadonlyMap<string, readonly IgnoreTrafficEntry[]>
}

const MATCH_FIELDS: readonly MatchField[] = ['number', 'CDRNumber', 'CDRNumber2', 'CDRNumber3', 'CDRNumber4']
const NO_TERMS: CdrTerms = { direction: null, chargeBand: null, origination: null }

/**
 * Indexes numbers by `number` and `CDRNumber..4`, normalised (`normaliseNumber`). When two
 * numbers claim the same digits, a `number` beats a `CDRNumber` (then `CDRNumber2`, ...), and
 * among equals the first given wins: pass live numbers before dropped ones (a dropped number
 * matches only calls up to its `droppedDate`: `matchNumber`). A CDR number whose
 * direction flag is `Outbound` (`Inbound`) is left out of the inbound (outbound) map, so there
 * the digits go to the next number that claims them, with the same precedence. Its charge band
 * and origination are read here, once a number, not once a record. Ignore entries may come
 * indexed already (`indexIgnores`), when one set serves many batches.
 */
export function buildNumberIndex<N extends NumberEntry>(
  numbers: Iterable<N>,
  ignores: Iterable<IgnoreTrafficEntry> | ReadonlyMap<string, readonly IgnoreTrafficEntry[]> = [],
): NumberIndex<N> {
  const list = [...numbers]
  const outbound = new Map<string, NumberHit<N>>()
  // One map serves both directions unless some CDR number is of one only (most imports have none).
  const split = list.some(hasOneWayCdrNumber)
  const inbound = split ? new Map<string, NumberHit<N>>() : outbound
  for (const field of MATCH_FIELDS) {
    for (const n of list) {
      const raw = n[field]
      const key = field === 'number' && n.numberKey ? n.numberKey : raw ? normaliseNumber(raw) : ''
      if (!key) continue
      const toOutbound = !outbound.has(key)
      const toInbound = split && !inbound.has(key)
      if (!toOutbound && !toInbound) continue
      const terms = field === 'number' ? NO_TERMS : cdrTermsOf(n, field)
      const hit: NumberHit<N> = { number: n, matchedBy: field, chargeBand: terms.chargeBand, origination: terms.origination }
      // Unsplit, `inbound` is `outbound` and every CDR number is of both directions: that one map takes it.
      if (toOutbound && terms.direction !== 'inbound') outbound.set(key, hit)
      if (toInbound && terms.direction !== 'outbound') inbound.set(key, hit)
    }
  }
  return { outbound, inbound, ignored: ignores instanceof Map ? ignores : indexIgnores(ignores as Iterable<IgnoreTrafficEntry>) }
}

/** Ignore-traffic entries by normalised number. */
export function indexIgnores(ignores: Iterable<IgnoreTrafficEntry>): ReadonlyMap<string, readonly IgnoreTrafficEntry[]> {
  const ignored = new Map<string, IgnoreTrafficEntry[]>()
  for (const entry of ignores) {
    const key = normaliseNumber(entry.number)
    if (!key) continue
    const at = ignored.get(key)
    if (at) at.push(entry)
    else ignored.set(key, [entry])
  }
  return ignored
}

/** The canonical number a record is matched by (see `matchNumber`). */
export const recordKey = (record: Pick<UsageRecord, 'callingNumber' | 'dialledNumber' | 'callClass'>): string =>
  normaliseNumber(directionOf(record) === 'inbound' ? record.dialledNumber : record.callingNumber)

/** `inbound` records belong to the dialled number, every other class to the calling number. */
export const directionOf = (r: Pick<UsageRecord, 'callClass'>): CallDirection =>
  r.callClass === 'inbound' ? 'inbound' : 'outbound'

/**
 * The number a record belongs to: the dialled number of an inbound record, else the calling
 * number, compared normalised with every `number` and `CDRNumber..4` (a CDR number of the other
 * direction only is not compared: `buildNumberIndex`). The record is ignored
 * traffic when an ignore entry for its number (or for the matched number's `number`) covers
 * its direction (`All Traffic` both) and its start date, from the entry's `fromDate` to the day
 * before its `reinstatedDate`; ignoring wins over matching, but not over a live number other than
 * the entry's own: the digits of a dropped number sold to another customer bill that customer.
 */
export function matchNumber<N extends NumberEntry>(
  index: NumberIndex<N>,
  record: Pick<UsageRecord, 'callingNumber' | 'dialledNumber' | 'callClass' | 'startTime'>,
): NumberMatch<N> {
  const direction = directionOf(record)
  const key = normaliseNumber(direction === 'inbound' ? record.dialledNumber : record.callingNumber)
  const hit = key ? (direction === 'inbound' ? index.inbound : index.outbound).get(key) : undefined
  // Dropped numbers are indexed only for the digits no live number has (`buildNumberIndex`).
  const found = hit?.number.droppedDate && dateOfStamp(record.startTime) > hit.number.droppedDate ? undefined : hit
  // Most imports have no ignore entries: then no date, set or key list is made per record.
  if (index.ignored.size > 0 && isIgnored(index, key, found?.number, direction, dateOfStamp(record.startTime))) {
    return { unmatchedReason: 'ignored traffic' }
  }
  return found ?? { unmatchedReason: 'no matching number' }
}

function isIgnored(index: NumberIndex<NumberEntry>, key: string, found: NumberEntry | undefined, direction: CallDirection, date: DateOnly): boolean {
  const own = found?.number
  const ownKey = own ? normaliseNumber(own) : ''
  for (const k of ownKey && ownKey !== key ? [key, ownKey] : [key]) {
    if (k && index.ignored.get(k)?.some((e) => covers(e, found, direction, date))) return true
  }
  return false
}

function covers(entry: IgnoreTrafficEntry, found: NumberEntry | undefined, direction: CallDirection, date: DateOnly): boolean {
  // another number than the entry's owns the traffic: a live one now, or a dropped one on that day
  if (found && entry.numberID && found.numberID !== entry.numberID) return false
  if (entry.fromDate !== null && date < entry.fromDate) return false
  if (entry.reinstatedDate && date >= entry.reinstatedDate) return false
  if (entry.type === 'Outbound Only') return direction === 'outbound'
  if (entry.type === 'Inbound Only') return direction === 'inbound'
  return true
}
