import type { BillingFeature } from './billing-feature.js'
import type { Money } from '../money/money.js'
import type { ChargeVersion, ChargeHistory } from './charge-history.js'
import type { BillingCutoff } from './feature-billing.js'
import type { DateOnly } from '../dates/date-only.js'

/**
 * Bump when the billing rules change what `planFeatureBilling` returns for the same inputs:
 * every stored mark then misses once and every feature is planned again.
 */
const RULES = 'rules-9'

// Every field of what the plan reads, checked by the compiler: a field added to one of these
// types and not listed here fails to compile, instead of being left out of the fingerprint;
// tests/core/billing-reconciled-mark.test.ts checks that each listed field changes the mark.
export const FEATURE_KEYS = ['startDate', 'endDate', 'billToDate', 'gaps', 'interval', 'connectionCharge', 'connectionChargeCarrier', 'serviceChargeCarrier', 'featureCountCommitted', 'committedTermDate', 'totalFeatureValue', 'serviceTransactionType', 'connectionTransactionType', 'isDropped', 'committedPeak', 'discounts', 'instalments', 'VATRate'] as const
export const VERSION_KEYS = ['from', 'serviceCharge', 'featureCount', 'committed', 'interval', 'newLayout', 'tariffPriced', 'olderThrough', 'series', 'mode'] as const
export const CUTOFF_KEYS = ['cutoff', 'chargeable', 'billable'] as const
type Exhaustive<T, K extends readonly (keyof T)[]> = Exclude<keyof T, K[number]> extends never ? true : false
const exhaustive: [Exhaustive<BillingFeature, typeof FEATURE_KEYS>, Exhaustive<ChargeVersion, typeof VERSION_KEYS>, Exhaustive<BillingCutoff, typeof CUTOFF_KEYS>] = [true, true, true]
void exhaustive

/**
 * The fingerprint of everything `planFeatureBilling` reads besides the ledger: the feature's
 * terms, its charge history and the cutoff with the state on it. A plan is a function of these
 * and the ledger, and a written plan reconciles (planning again returns an empty difference),
 * so a feature whose ledger was reconciled with the same fingerprint and not written since
 * needs nothing: a billing run skips it without reading its ledger (see `Ledger.write`).
 * Every key of FEATURE_KEYS, CUTOFF_KEYS and VERSION_KEYS is hashed in one pass, value by
 * value, without writing them out as text first: the text (a template of a dozen parts, money
 * as decimal strings) was a large part of what a billing run allocated (bench/billing-run.ts;
 * figures in bench/RESULTS.md).
 * tests/core/billing-reconciled-mark.test.ts checks that every key counts.
 */
export function reconciledMark(f: BillingFeature, history: ChargeHistory, at: BillingCutoff): string {
  h1 = 0xdeadbeef
  h2 = 0x41c6ce57
  text(RULES)
  date(f.startDate)
  date(f.endDate)
  date(f.billToDate)
  text(f.interval)
  money(f.connectionCharge)
  money(f.connectionChargeCarrier)
  money(f.serviceChargeCarrier)
  count(f.featureCountCommitted)
  date(f.committedTermDate)
  money(f.totalFeatureValue)
  text(f.serviceTransactionType)
  text(f.connectionTransactionType)
  mix(f.isDropped ? TRUE : FALSE)
  mix(f.committedPeak ? TRUE : FALSE)
  mix(f.discounts.length)
  for (const d of f.discounts) {
    date(d.from)
    date(d.through)
    money(d.percent)
    money(d.amount)
  }
  if (f.instalments === null) mix(NULL)
  else {
    count(f.instalments.count)
    money(f.instalments.total)
  }
  date(at.cutoff)
  mix(at.chargeable ? TRUE : FALSE)
  mix(history.length)
  for (const h of history) {
    date(h.from)
    money(h.serviceCharge)
    count(h.featureCount)
    if (h.committed === undefined) mix(UNSET)
    else count(h.committed)
    if (h.interval === undefined) mix(UNSET)
    else text(h.interval)
    mix(h.newLayout ? TRUE : FALSE)
    mix(h.tariffPriced ? TRUE : FALSE)
    count(h.series)
    text(h.mode)
    // Only an add made since it was kept has one: the marks of every other history stay as they were.
    if (h.olderThrough !== undefined) {
      mix(OLDER)
      date(h.olderThrough)
    }
  }
  // Last, and only when there are any: the marks of features never reinstated after a gap stay as they were.
  if (f.gaps.length) {
    mix(GAPS)
    mix(f.gaps.length)
    for (const g of f.gaps) {
      date(g.from)
      date(g.to)
    }
  }
  // Last, behind its own tag, so the marks written before it moved here stay as they were.
  mix(VAT)
  text(f.VATRate)
  // Only when non-billable (it defers the connection charge): every other mark stays as it was.
  if (at.billable === false) mix(NON_BILLABLE)
  return digest()
}

// Tags above every UTF-16 code unit, so no value's hashed units can read as another's.
const NULL = 0x10000
const TRUE = 0x10001
const FALSE = 0x10002
const TEXT = 0x10003
const INTEGER = 0x10004
const DECIMAL = 0x10005
/** A version's committed count recorded before counts were kept (not the same as none). */
const UNSET = 0x10006
const GAPS = 0x10007
/** Before an add's `olderThrough`, which only some versions have. */
const OLDER = 0x10008
/** Before the VAT rate name. */
const VAT = 0x10009
/** A cutoff on which the feature or an ancestor is non-billable. */
const NON_BILLABLE = 0x1000a

/** The two lanes of the hash being computed (reconciledMark runs to the end without yielding). */
let h1 = 0
let h2 = 0

/** 32-bit multiply-xorshift lanes (cyrb53's, both kept at 32 bits). Not cryptographic. */
function mix(unit: number): void {
  h1 = Math.imul(h1 ^ unit, 2654435761)
  h2 = Math.imul(h2 ^ unit, 1597334677)
}

/** Text with its length first: free text (transaction type names) cannot run into the next value. */
function text(s: string | null): void {
  if (s === null) return mix(NULL)
  mix(TEXT)
  mix(s.length)
  for (let i = 0; i < s.length; i++) mix(s.charCodeAt(i))
}

const date = (d: DateOnly | null): void => text(d)

/** A number: small integers as themselves, anything else (fractions, huge values) as its shortest text. */
function count(n: number | null): void {
  if (n === null) return mix(NULL)
  if (Number.isInteger(n) && n >= -0x7fffffff && n <= 0x7fffffff) {
    mix(INTEGER)
    return mix(n | 0)
  }
  mix(DECIMAL)
  text(String(n))
}

/** Money: amounts that fit 31 bits as numbers (no string made), larger ones as their digits. */
function money(m: Money | null): void {
  if (m === null) return mix(NULL)
  if (m >= -0x7fffffffn && m <= 0x7fffffffn) {
    mix(INTEGER)
    return mix(Number(m))
  }
  mix(DECIMAL)
  text(String(m))
}

/**
 * 64 bits of the lanes as 11 characters of base64url, made in one string: the 16 hex digits
 * this was before took five strings per feature, which showed in a billing run's time. Marks
 * stored in the old form simply miss once. An unchanged mark for changed inputs needs a
 * 1-in-2^64 accident.
 */
function digest(): string {
  const a = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  const b = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909)
  const d = BASE64URL
  return String.fromCharCode(
    d[a & 63],
    d[(a >>> 6) & 63],
    d[(a >>> 12) & 63],
    d[(a >>> 18) & 63],
    d[(a >>> 24) & 63],
    d[(a >>> 30) | ((b & 15) << 2)],
    d[(b >>> 4) & 63],
    d[(b >>> 10) & 63],
    d[(b >>> 16) & 63],
    d[(b >>> 22) & 63],
    d[b >>> 28],
  )
}

const BASE64URL = Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', (c) => c.charCodeAt(0))
