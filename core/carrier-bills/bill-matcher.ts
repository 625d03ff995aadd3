import type { FeatureKey } from '../ports/carrier-data.js'
import { wildcardTest } from './wildcard.js'

/** What matching reads of a carrier's bill line. */
export interface BillLineKey {
  readonly productCode: string
  readonly reference: string
}

const SEP = '\u0000'

/** A feature's side of matching, spaces around each value ignored (empty is unset). */
export interface MatchKeys {
  readonly product: string | null
  readonly productPattern: string | null
  readonly reference: string | null
  readonly referencePattern: string | null
}

const trimmed = (v: string | null | undefined): string | null => (v ? v.trim() || null : null)

/**
 * What a feature is matched by: its `carrierProduct`, `carrierProductMatches`, its
 * `carrierReference` (else its number's) and `carrierReferenceMatches`, each without the spaces
 * around it, as a bill's fields are read (`billLinePages` trims them): a feature stored with
 * `SIP ` matches a line `SIP`, and a line `"SIP "` too. A value of spaces alone is unset.
 */
export function matchKeys(feature: FeatureKey): MatchKeys {
  return {
    product: trimmed(feature.carrierProduct),
    productPattern: trimmed(feature.carrierProductMatches),
    reference: trimmed(feature.carrierReference) ?? trimmed(feature.numberCarrierReference),
    referencePattern: trimmed(feature.carrierReferenceMatches),
  }
}

/**
 * The lines of a carrier's bill indexed for matching features (contract 17.4): a line matches a
 * feature when its product code equals the feature's `carrierProduct` or matches its
 * `carrierProductMatches`, and its reference equals the feature's `carrierReference` (else its
 * number's) or matches `carrierReferenceMatches`. Patterns have only the `*` and `?`
 * wildcards (`wildcardTest`), compiled once each. Both sides are compared without the spaces
 * around them (`matchKeys`, and the lines' fields trimmed here too). An exact pair is one map lookup; a pattern
 * on one side is tried on the lines of the other side's exact value; only a feature with
 * patterns on both sides reads every line. A reconciliation builds one over the stored lines a page of features can match
 * (`featureMatches`): memory follows that page, never the bill nor the features.
 */
export class BillMatcher {
  private readonly byPair = new Map<string, number[]>()
  private readonly byProduct = new Map<string, number[]>()
  private readonly byReference = new Map<string, number[]>()
  private readonly patterns = new Map<string, (s: string) => boolean>()

  private readonly lines: readonly BillLineKey[]

  constructor(lines: readonly BillLineKey[]) {
    this.lines = lines.map((l) => ({ productCode: l.productCode.trim(), reference: l.reference.trim() }))
    this.lines.forEach((line, i) => {
      push(this.byPair, line.productCode + SEP + line.reference, i)
      push(this.byProduct, line.productCode, i)
      push(this.byReference, line.reference, i)
    })
  }

  /** The indexes of the lines that match the feature, in line order. */
  linesOf(feature: FeatureKey): readonly number[] {
    const keys = matchKeys(feature)
    const { product, reference } = keys
    const productPattern = keys.productPattern ? this.pattern(keys.productPattern) : null
    const referencePattern = keys.referencePattern ? this.pattern(keys.referencePattern) : null
    if (!product && !productPattern) return NONE
    if (!reference && !referencePattern) return NONE
    const productOk = (code: string) => code === product || (productPattern !== null && productPattern(code))
    const referenceOk = (ref: string) => ref === reference || (referencePattern !== null && referencePattern(ref))
    if (!productPattern && !referencePattern) return this.byPair.get(product + SEP + reference) ?? NONE
    const found = new Set<number>()
    const tryAll = (candidates: readonly number[] | undefined) => {
      for (const i of candidates ?? NONE) if (productOk(this.lines[i].productCode) && referenceOk(this.lines[i].reference)) found.add(i)
    }
    if (product) tryAll(this.byProduct.get(product))
    if (reference) tryAll(this.byReference.get(reference))
    if (productPattern && referencePattern) for (let i = 0; i < this.lines.length; i++) tryAll([i])
    return [...found].sort((a, b) => a - b)
  }

  private pattern(glob: string): (s: string) => boolean {
    let test = this.patterns.get(glob)
    if (!test) {
      test = wildcardTest(glob)
      this.patterns.set(glob, test)
    }
    return test
  }
}

const NONE: readonly number[] = []

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key)
  if (list) list.push(i)
  else map.set(key, [i])
}
