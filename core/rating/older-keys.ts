import type { Stamp } from '../dates/stamp.js'
import type { Digest } from '../ports/digest.js'
import type { RatingData } from '../ports/rating-data.js'
import { carrierKey } from '../presets/carrier-allocation.js'
import { speltCarrierFingerprint, usageFingerprint } from './usage-fingerprint.js'
import type { UsageRecord } from './usage-record.js'

/**
 * A key an older import may have stored a record under: the record's position in its batch, the
 * key, and the start the call was stored with (null: at any start, for a key that holds none).
 */
export interface OlderKey {
  readonly at: number
  readonly key: string
  readonly start: Stamp | null
}

/**
 * The positions of records stored already under a key imports made before keys changed, so a
 * file imported then and sent again is still a duplicate. Only calls up to `throughCallID` (the
 * last call stored before the change, `RatingData.oldKeysThrough` or `speltKeysThrough`) can hold
 * such a key: with none, `keysOf` is not called, nothing is hashed or asked, and an install begun
 * since pays nothing. Else a statement for the keys with a start (among calls started in their
 * span: on Postgres only those months' partitions) and one for those at any start.
 */
export async function storedUnderOlderKeys(
  data: RatingData,
  throughCallID: string | null,
  keysOf: () => readonly OlderKey[],
): Promise<ReadonlySet<number> | null> {
  if (throughCallID === null) return null
  // Lists: the same record twice in a batch has one key, and both are duplicates.
  const started = new Map<string, number[]>()
  const anyStart = new Map<string, number[]>()
  let from: Stamp | null = null
  let to: Stamp | null = null
  for (const { at, key, start } of keysOf()) {
    const keys = start === null ? anyStart : started
    const list = keys.get(key)
    if (list) list.push(at)
    else keys.set(key, [at])
    if (start === null) continue
    if (from === null || start < from) from = start
    if (to === null || start > to) to = start
  }
  const found = new Set<number>()
  const mark = (keys: Map<string, number[]>, stored: Set<string>) => {
    for (const key of stored) for (const at of keys.get(key) ?? []) found.add(at)
  }
  if (anyStart.size) mark(anyStart, await data.storedFingerprints([...anyStart.keys()], null, throughCallID))
  if (started.size) mark(started, await data.storedFingerprints([...started.keys()], { from: from!, to: to! }, throughCallID))
  return found.size ? found : null
}

/**
 * Keys imports made before migration 0066, when a record whose band or class the destination
 * table gave was keyed after its lookup, with the band and class the table gave it then (and,
 * before 0087, the carrier as spelt): `speltCarrierFingerprint` of the resolved record. So a
 * record is still found while the table gives the same; once the table changed, its old key is of
 * other values, and nothing tells it from a new one. A record with an `externalID` has none: its
 * key holds no band or class. `resolved` is `read` after `resolveDestinations`, in order.
 */
export function lookedUpKeys(digest: Digest, read: readonly UsageRecord[], resolved: readonly UsageRecord[]): OlderKey[] {
  const keys: OlderKey[] = []
  for (let at = 0; at < read.length; at++) {
    const r = read[at]
    if (r.lookUpDestination && r.externalID === null) keys.push({ at, key: digest.sha256(speltCarrierFingerprint(resolved[at])), start: r.startTime })
  }
  return keys
}

/**
 * Keys imports made before migration 0087, which held the carrier as spelt, not as compared.
 *
 * A record with an `externalID` is looked for under both keys and at any start (its key holds
 * none): where calls are partitioned by month (Postgres), a call stored then has no claim of its
 * key (`NewCall.keyedByID`), and its partition's unique index sees only its own month. One without
 * is looked for when its carrier is spelt otherwise than compared (else its key is today's, held
 * by the calls' unique index with its start). Read `throughFormat` (contract 17.3), one whose
 * start has a fraction is also looked for with its start cut to the second, as formats read starts
 * then: our own layout always kept fractions, and there the cut start would take a second call in
 * the same second for a duplicate.
 */
export function speltCarrierKeys(digest: Digest, read: readonly UsageRecord[], throughFormat: boolean): OlderKey[] {
  const keys: OlderKey[] = []
  for (let at = 0; at < read.length; at++) {
    const r = read[at]
    const spelt = r.carrier !== carrierKey(r.carrier)
    if (r.externalID !== null) {
      keys.push({ at, key: digest.sha256(speltCarrierFingerprint(r)), start: null })
      if (spelt) keys.push({ at, key: digest.sha256(usageFingerprint(r)), start: null })
      continue
    }
    if (spelt) keys.push({ at, key: digest.sha256(speltCarrierFingerprint(r)), start: r.startTime })
    const cut = throughFormat ? cutToSecond(r.startTime) : null
    if (cut !== null) keys.push({ at, key: digest.sha256(speltCarrierFingerprint({ ...r, startTime: cut })), start: cut })
  }
  return keys
}

/** The start with its fraction cut off, or null when it has none (its key is the record's own). */
function cutToSecond(start: Stamp): Stamp | null {
  return start.slice(19, 23) === '.000' ? null : (`${start.slice(0, 19)}.000Z` as Stamp)
}
