import type { BillLineSource, CarrierFeature, StoredBillLine } from '../ports/carrier-data.js'
import { BillMatcher, matchKeys } from './bill-matcher.js'

/** A stored bill's lines read this many at a time when a pattern must be tried on every line. */
export const LINE_PAGE = 5000

/** A feature of the page (by its index in it) and a stored line it matches. */
export interface FeatureMatch {
  readonly feature: number
  readonly line: StoredBillLine
}

/**
 * The lines of a bill (staged or stored) that each of a page of features matches (contract 17.4), a batch at
 * a time, so memory follows the page, not the bill. A feature with an exact reference (its own
 * `carrierReference`, else its number's) and no reference pattern can only match lines of that
 * reference: the page's references are looked up in the database in one statement and the
 * lines found matched in `BillMatcher` (product equal, or its `*` `?` pattern on the product).
 * Only a feature with a reference pattern can match any line: the bill's lines are read a page
 * at a time and tried, once for all such features of the page. Batches come in no order of line
 * or feature; a feature's matches may span batches.
 */
export async function* featureMatches(lines: BillLineSource, features: readonly CarrierFeature[]): AsyncGenerator<FeatureMatch[]> {
  const byReference: number[] = []
  const anyLine: number[] = []
  features.forEach((f, i) => {
    const keys = matchKeys(f)
    if (!keys.product && !keys.productPattern) return
    if (keys.referencePattern) anyLine.push(i)
    else if (keys.reference) byReference.push(i)
  })
  if (byReference.length > 0) {
    const references = [...new Set(byReference.map((i) => referenceOf(features[i])!))]
    yield matched(await lines.byReference(references), features, byReference)
  }
  if (anyLine.length === 0) return
  for (let after: string | null = null; ; ) {
    const page = await lines.page(after, LINE_PAGE)
    if (page.length === 0) return
    after = page.at(-1)!.id
    yield matched(page, features, anyLine)
  }
}

/** The feature's exact reference, without the spaces around it (`matchKeys`): the lines are stored trimmed. */
const referenceOf = (f: CarrierFeature) => matchKeys(f).reference

function matched(lines: readonly StoredBillLine[], features: readonly CarrierFeature[], which: readonly number[]): FeatureMatch[] {
  if (lines.length === 0) return []
  const matcher = new BillMatcher(lines)
  const out: FeatureMatch[] = []
  for (const feature of which) for (const k of matcher.linesOf(features[feature])) out.push({ feature, line: lines[k] })
  return out
}
