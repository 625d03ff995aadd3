import type { Stamp } from '../dates/stamp.js'
import type { Digest } from '../ports/digest.js'
import type { RatingData } from '../ports/rating-data.js'
import { carrierKey } from '../presets/carrier-allocation.js'
import { speltCarrierFingerprint, usageFingerprint } from './usage-fingerprint.js'
import type { UsageRecord } from './usage-record.js'

/**
 * The positions in `read` of records stored already by an import before migration 0087, whose
 * keys held the carrier as spelt (`speltCarrierFingerprint`), not as compared: a file imported
 * then and sent again is still a duplicate. Only calls up to `throughCallID`
 * (`RatingData.speltKeysThrough`) can hold such a key: with none, nothing is hashed or asked,
 * so an install that began with this key pays nothing. Else a statement a batch (two when it
 * mixes records with and without an `externalID`), on the lookups' connection, in the lookahead.
 *
 * A record with an `externalID` is looked for under both keys and at any start (its key holds
 * none): where calls are partitioned by month (Postgres), a call stored then has no claim of its
 * key (`NewCall.keyedByID`), and its partition's unique index sees only its own month. One without
 * is looked for when its carrier is spelt otherwise than compared (else its key is today's, held
 * by the calls' unique index with its start), among calls started in the batch's span. Read
 * `throughFormat` (contract 17.3), one whose start has a fraction is also looked for with its
 * start cut to the second, as formats read starts then: our own layout always kept fractions, and
 * there the cut start would take a second call in the same second for a duplicate.
 */
export async function storedUnderSpeltCarriers(
  data: RatingData,
  digest: Digest,
  read: readonly UsageRecord[],
  throughCallID: string | null,
  throughFormat: boolean,
): Promise<ReadonlySet<number> | null> {
  if (throughCallID === null) return null
  // Lists: the same record twice in a batch has one key, and both are duplicates.
  const byID = new Map<string, number[]>()
  const byRecord = new Map<string, number[]>()
  let from: Stamp | null = null
  let to: Stamp | null = null
  for (let i = 0; i < read.length; i++) {
    const r = read[i]
    const spelt = r.carrier !== carrierKey(r.carrier)
    if (r.externalID !== null) {
      add(byID, digest.sha256(speltCarrierFingerprint(r)), i)
      if (spelt) add(byID, digest.sha256(usageFingerprint(r)), i)
    } else {
      const cut = throughFormat ? cutToSecond(r.startTime) : null
      if (spelt) add(byRecord, digest.sha256(speltCarrierFingerprint(r)), i)
      if (cut !== null) add(byRecord, digest.sha256(speltCarrierFingerprint({ ...r, startTime: cut })), i)
      if (!spelt && cut === null) continue
      const earliest = cut ?? r.startTime
      if (from === null || earliest < from) from = earliest
      if (to === null || r.startTime > to) to = r.startTime
    }
  }
  const found = new Set<number>()
  const mark = (keys: Map<string, number[]>, stored: Set<string>) => {
    for (const key of stored) for (const i of keys.get(key) ?? []) found.add(i)
  }
  if (byID.size) mark(byID, await data.storedFingerprints([...byID.keys()], null, throughCallID))
  if (byRecord.size && from !== null && to !== null) mark(byRecord, await data.storedFingerprints([...byRecord.keys()], { from, to }, throughCallID))
  return found.size ? found : null
}

/** The start with its fraction cut off, or null when it has none (its key is the record's own). */
function cutToSecond(start: Stamp): Stamp | null {
  return start.slice(19, 23) === '.000' ? null : (`${start.slice(0, 19)}.000Z` as Stamp)
}

function add(keys: Map<string, number[]>, key: string, i: number): void {
  const list = keys.get(key)
  if (list) list.push(i)
  else keys.set(key, [i])
}
