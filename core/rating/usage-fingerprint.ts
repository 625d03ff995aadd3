import { formatMoney } from '../money/money.js'
import { carrierKey } from '../presets/carrier-allocation.js'
import { normaliseNumber } from './phone-number.js'
import type { UsageRecord } from './usage-record.js'

/**
 * The identity of a usage record, as canonical text for the caller to hash and keep unique,
 * so a record sent twice (in the same file or a later one) is detected.
 *
 * With an `externalID`, the record is the carrier's record of that ID: `carrier` + `externalID`
 * (a corrected re-send with the same ID is the same record). Without one, every field that
 * describes the usage, in canonical form: numbers normalised, the start as a UTC stamp, amounts
 * and flags in one spelling. The line number is never part of it. The JSON array form keeps
 * values from running into each other.
 *
 * Of the record as the file gave it: a `chargeBand` or `callClass` still to be looked up
 * (`lookUpDestination`) is null, so a record sent again is the same record after the
 * destination table changed (contract 9.6). Null never appears in a key made before, whose
 * band and class were always text: given a record after `resolveDestinations`, this is the key
 * those imports stored for it (`lookedUpKeys`, `older-keys.ts`).
 *
 * The carrier as carriers' names are compared (`carrierKey`: trimmed, lower-cased, as
 * `sameCarrier` allocates), so `GAMMA` in one file and `Gamma` in a carrier format's are one
 * record. Keys made before (migration 0087) hold it as spelt: `speltCarrierFingerprint`.
 */
export function usageFingerprint(r: UsageRecord): string {
  return keyText(r, carrierKey(r.carrier))
}

/**
 * The key imports made before carriers were keyed as compared (migration 0087): the carrier as
 * the file spelt it. Looked for among the calls stored then (`speltCarrierKeys`, `older-keys.ts`).
 */
export function speltCarrierFingerprint(r: UsageRecord): string {
  return keyText(r, r.carrier)
}

function keyText(r: UsageRecord, carrier: string): string {
  if (r.externalID !== null) return JSON.stringify(['ext1', carrier, r.externalID])
  const lookUp = r.lookUpDestination
  return JSON.stringify([
    'rec1',
    carrier,
    normaliseNumber(r.callingNumber),
    normaliseNumber(r.dialledNumber),
    r.startTime,
    String(r.durationSeconds),
    lookUp === 'chargeBand' || lookUp === 'both' ? null : r.chargeBand,
    lookUp === 'callClass' || lookUp === 'both' ? null : r.callClass,
    r.bytes,
    r.events,
    r.origination,
    r.recorded,
    r.wholesaleCost === null ? null : formatMoney(r.wholesaleCost),
  ])
}
