import type { Stamp } from '../dates/stamp.js'
import type { Digest } from '../ports/digest.js'
import type { RatingData } from '../ports/rating-data.js'
import { speltCarrierFingerprint } from './usage-fingerprint.js'
import type { UsageRecord } from './usage-record.js'

/**
 * The positions in `read` of records whose band or class the destination table gave, stored
 * already under the key imports made before fingerprints were of the record as read: those
 * keyed a record after its lookup, with the band and class the table gave it then
 * (`speltCarrierFingerprint` of the resolved record: the carrier as spelt, as before migration
 * 0087). So a file imported then and sent again is still a duplicate while the table gives the
 * same; once the table changed, its old key is of other values, and nothing tells the record
 * from a new one.
 *
 * Only calls up to `throughCallID` (`RatingData.oldKeysThrough`, the last call stored before
 * keys changed) can hold such a key: with none, nothing is hashed or asked, so an install that
 * began with this key pays nothing. Else one statement a batch, and none when no record was
 * looked up or each has an `externalID` (whose key holds no band or class). `resolved` is
 * `read` after `resolveDestinations`, in order.
 */
export async function storedUnderLookedUpKeys(
  data: RatingData,
  digest: Digest,
  read: readonly UsageRecord[],
  resolved: readonly UsageRecord[],
  throughCallID: string | null,
): Promise<ReadonlySet<number> | null> {
  if (throughCallID === null) return null
  // A list: the same record twice in a batch has one key, and both are duplicates.
  const at = new Map<string, number[]>()
  let from: Stamp | null = null
  let to: Stamp | null = null
  for (let i = 0; i < read.length; i++) {
    const r = read[i]
    if (!r.lookUpDestination || r.externalID !== null) continue
    // Made before migration 0087 too: of the carrier as spelt.
    const key = digest.sha256(speltCarrierFingerprint(resolved[i]))
    const list = at.get(key)
    if (list) list.push(i)
    else at.set(key, [i])
    if (from === null || r.startTime < from) from = r.startTime
    if (to === null || r.startTime > to) to = r.startTime
  }
  if (from === null || to === null) return null
  const stored = await data.storedFingerprints([...at.keys()], { from, to }, throughCallID)
  return stored.size ? new Set([...stored].flatMap((key) => at.get(key) ?? [])) : null
}
