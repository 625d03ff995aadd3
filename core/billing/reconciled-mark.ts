import type { BillingFeature } from './billing-feature.js'
import type { ChargeVersion, ChargeHistory } from './charge-history.js'
import type { BillingCutoff } from './feature-billing.js'

/**
 * Bump when the billing rules change what `planFeatureBilling` returns for the same inputs:
 * every stored mark then misses once and every feature is planned again.
 */
const RULES = 'rules-1'

// Every field of what the plan reads, checked by the compiler: a field added to one of these
// types and not listed here fails to compile, instead of being left out of the fingerprint.
const FEATURE_KEYS = ['startDate', 'endDate', 'billToDate', 'interval', 'connectionCharge', 'featureCountCommitted', 'committedTermDate', 'totalFeatureValue', 'serviceTransactionType', 'connectionTransactionType', 'isDropped'] as const
const VERSION_KEYS = ['from', 'serviceCharge', 'featureCount', 'series', 'mode'] as const
const CUTOFF_KEYS = ['cutoff', 'chargeable'] as const
type Exhaustive<T, K extends readonly (keyof T)[]> = Exclude<keyof T, K[number]> extends never ? true : false
const exhaustive: [Exhaustive<BillingFeature, typeof FEATURE_KEYS>, Exhaustive<ChargeVersion, typeof VERSION_KEYS>, Exhaustive<BillingCutoff, typeof CUTOFF_KEYS>] = [true, true, true]
void exhaustive

/**
 * A value in the fingerprint text, null distinct from every value. Free text (transaction type
 * names) is quoted, so no separator inside one is ambiguous; dates, intervals and modes are
 * fixed forms without separators and go as they are (quoting each cost most of the mark).
 */
const part = (v: unknown, free = false): string => (v === null ? '~' : free ? JSON.stringify(v) : String(v))
const FREE_TEXT: ReadonlySet<string> = new Set(['serviceTransactionType', 'connectionTransactionType'])

/**
 * The fingerprint of everything `planFeatureBilling` reads besides the ledger: the feature's
 * terms, its charge history and the cutoff with the state on it. A plan is a function of these
 * and the ledger, and a written plan reconciles (planning again returns an empty difference),
 * so a feature whose ledger was reconciled with the same fingerprint and not written since
 * needs nothing: a billing run skips it without reading its ledger (see `Ledger.write`).
 */
export function reconciledMark(feature: BillingFeature, history: ChargeHistory, at: BillingCutoff): string {
  let text = RULES
  for (const k of FEATURE_KEYS) text += `|${part(feature[k], FREE_TEXT.has(k))}`
  for (const k of CUTOFF_KEYS) text += `|${part(at[k])}`
  for (const v of history) {
    text += '#'
    for (const k of VERSION_KEYS) text += `|${part(v[k])}`
  }
  return hash64(text)
}

/**
 * 64 bits of a string as 16 hex digits: two multiply-xorshift lanes (cyrb53's, both kept at
 * 32 bits). Not cryptographic; an unchanged mark for changed inputs needs a 1-in-2^64 accident.
 */
function hash64(text: string): string {
  let h1 = 0xdeadbeef ^ text.length
  let h2 = 0x41c6ce57 ^ text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0')
}
