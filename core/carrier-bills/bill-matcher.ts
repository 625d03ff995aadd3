import type { FeatureKey } from '../ports/carrier-data.js'
import { wildcardTest } from './wildcard.js'

/** What matching reads of a carrier's bill line. */
export interface BillLineKey {
  readonly productCode: string
  readonly reference: string
}

const SEP = '\u0000'

/**
 * The lines of a carrier's bill indexed for matching features (contract 17.4): a line matches a
 * feature when its product code equals the feature's `carrierProduct` or matches its
 * `carrierProductMatches`, and its reference equals the feature's `carrierReference` (else its
 * number's) or matches `carrierReferenceMatches`. Patterns have only the `*` and `?`
 * wildcards (`wildcardTest`), compiled once each. An exact pair is one map lookup; a pattern
 * on one side is tried on the lines of the other side's exact value; only a feature with
 * patterns on both sides reads every line. A reconciliation builds one over the stored lines a page of features can match
 * (`featureMatches`): memory follows that page, never the bill nor the features.
 */
export class BillMatcher {
  private readonly byPair = new Map<string, number[]>()
  private readonly byProduct = new Map<string, number[]>()
  private readonly byReference = new Map<string, number[]>()
  private readonly patterns = new Map<string, (s: string) => boolean>()

  constructor(private readonly lines: readonly BillLineKey[]) {
    lines.forEach((line, i) => {
      push(this.byPair, line.productCode + SEP + line.reference, i)
      push(this.byProduct, line.productCode, i)
      push(this.byReference, line.reference, i)
    })
  }

  /** The indexes of the lines that match the feature, in line order. */
  linesOf(feature: FeatureKey): readonly number[] {
    const reference = feature.carrierReference || feature.numberCarrierReference || null
    const product = feature.carrierProduct || null
    const productPattern = feature.carrierProductMatches ? this.pattern(feature.carrierProductMatches) : null
    const referencePattern = feature.carrierReferenceMatches ? this.pattern(feature.carrierReferenceMatches) : null
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
