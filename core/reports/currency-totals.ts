import { add, ZERO, type Money } from '../money/money.js'

/** A report's running sums in one currency: one mutable entry a currency, so a line adds without making an object. */
export type CurrencySums<K extends string> = { -readonly [k in K]: Money }

/**
 * A report's totals kept per currency (its lines carry their customer's), exactly: a sum of two
 * currencies means nothing alone, so every report (margin, journal, commission statements)
 * gives one total a currency beside the total of every line, which it keeps for readers of one
 * currency.
 */
export class CurrencyTotals<K extends string> {
  private readonly sums = new Map<string, CurrencySums<K>>()

  constructor(private readonly fields: readonly K[]) {}

  /** The entry of `currency`, to add a line's amounts to. */
  of(currency: string): CurrencySums<K> {
    let sums = this.sums.get(currency)
    if (!sums) {
      sums = this.zero()
      this.sums.set(currency, sums)
    }
    return sums
  }

  /** Adds `amounts` to `currency`'s sums. */
  add(currency: string, amounts: Readonly<Record<K, Money>>): void {
    const sums = this.of(currency)
    for (const f of this.fields) sums[f] = add(sums[f], amounts[f])
  }

  /** Every currency's sums added (meaningful only when there is one currency). */
  all(): Record<K, Money> {
    const out = this.zero()
    for (const sums of this.sums.values()) for (const f of this.fields) out[f] = add(out[f], sums[f])
    return out
  }

  /** One entry a currency present, in code order. */
  byCurrency(): { currency: string; sums: Record<K, Money> }[] {
    return [...this.sums.keys()].sort().map((currency) => ({ currency, sums: { ...this.sums.get(currency)! } }))
  }

  private zero(): CurrencySums<K> {
    return Object.fromEntries(this.fields.map((f) => [f, ZERO])) as CurrencySums<K>
  }
}
