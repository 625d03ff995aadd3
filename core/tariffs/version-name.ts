import { formatMoney, type Money } from '../money/money.js'
import type { Store } from '../ports/store.js'
import type { TariffKind } from './increase-scopes.js'

/** A percentage as people write it: 3.5000 → "+3.5", -10.0000 → "-10", 0 → "+0". */
export function percentLabel(percent: Money): string {
  const text = formatMoney(percent).replace(/\.?0+$/, '')
  return percent < 0n ? text : `+${text}`
}

/** The name of an increased copy: "Retail 2026 +3.5%". */
export const versionName = (sourceName: string, percent: Money): string => `${sourceName} ${percentLabel(percent)}%`

const BATCH = 10

/**
 * The first of `base`, `base (2)`, `base (3)`, ... that no tariff of the kind is called, checked
 * ten names per query. Called under the version lock, so racing copies cannot pick the same one.
 */
export async function freeName(store: Store, kind: TariffKind, base: string): Promise<string> {
  for (let from = 1; ; from += BATCH) {
    const candidates = Array.from({ length: BATCH }, (_, i) => (from + i === 1 ? base : `${base} (${from + i})`))
    const taken = await store.namesExisting(kind, candidates)
    const free = candidates.find((name) => !taken.has(name))
    if (free) return free
  }
}
