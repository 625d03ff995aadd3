import type { BillingFeature } from './billing-feature.js'
import type { Money } from '../money/money.js'
import type { ChargeVersion, ChargeHistory } from './charge-history.js'
import type { BillingCutoff } from './feature-billing.js'

/**
 * Bump when the billing rules change what `planFeatureBilling` returns for the same inputs:
 * every stored mark then misses once and every feature is planned again.
 */
const RULES = 'rules-1'

// Every field of what the plan reads, checked by the compiler: a field added to one of these
// types and not listed here fails to compile, instead of being left out of the fingerprint;
// tests/core/billing-reconciled-mark.test.ts checks that each listed field changes the mark.
export const FEATURE_KEYS = ['startDate', 'endDate', 'billToDate', 'interval', 'connectionCharge', 'featureCountCommitted', 'committedTermDate', 'totalFeatureValue', 'serviceTransactionType', 'connectionTransactionType', 'isDropped'] as const
export const VERSION_KEYS = ['from', 'serviceCharge', 'featureCount', 'series', 'mode'] as const
export const CUTOFF_KEYS = ['cutoff', 'chargeable'] as const
type Exhaustive<T, K extends readonly (keyof T)[]> = Exclude<keyof T, K[number]> extends never ? true : false
const exhaustive: [Exhaustive<BillingFeature, typeof FEATURE_KEYS>, Exhaustive<ChargeVersion, typeof VERSION_KEYS>, Exhaustive<BillingCutoff, typeof CUTOFF_KEYS>] = [true, true, true]
void exhaustive

/** A value in the fingerprint text, null distinct from every value (no value's text is "~"). */
const v = (x: Money | number | boolean | string | null): string => (x === null ? '~' : String(x))
/** Free text (transaction type names) is quoted, so no separator inside one is ambiguous. */
const q = (x: string | null): string => (x === null ? '~' : JSON.stringify(x))

/**
 * The fingerprint of everything `planFeatureBilling` reads besides the ledger: the feature's
 * terms, its charge history and the cutoff with the state on it. A plan is a function of these
 * and the ledger, and a written plan reconciles (planning again returns an empty difference),
 * so a feature whose ledger was reconciled with the same fingerprint and not written since
 * needs nothing: a billing run skips it without reading its ledger (see `Ledger.write`).
 * Written as one template (every key of FEATURE_KEYS, CUTOFF_KEYS and VERSION_KEYS): a loop
 * over the keys cost most of a skipped feature (tests/core/billing-reconciled-mark.test.ts
 * checks that every key counts).
 */
export function reconciledMark(f: BillingFeature, history: ChargeHistory, at: BillingCutoff): string {
  let text = `${RULES}|${v(f.startDate)}|${v(f.endDate)}|${v(f.billToDate)}|${f.interval}|${v(f.connectionCharge)}|${v(f.featureCountCommitted)}|${v(f.committedTermDate)}|${v(f.totalFeatureValue)}|${q(f.serviceTransactionType)}|${q(f.connectionTransactionType)}|${f.isDropped}|${v(at.cutoff)}|${at.chargeable}`
  for (const h of history) text += `#${h.from}|${v(h.serviceCharge)}|${h.featureCount}|${h.series}|${h.mode}`
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
