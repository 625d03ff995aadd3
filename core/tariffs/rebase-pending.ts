import type { DateOnly } from '../dates/date-only.js'
import type { Item } from '../fields/item.js'
import { parseMoney, type Money } from '../money/money.js'
import { fieldsOf, type IncreaseScope } from './increase-scopes.js'
import { earlierPricesOf, pendingIncreaseOf, serializeIncreases, type PendingIncrease } from './pending-increase.js'
import { increaseRow } from './price-increase.js'

/**
 * A call tariff's pending increase after a PATCH changed its own prices (contract 17.5: an
 * increase is a percentage of the price, so a price edited before the date is raised from what
 * it was edited to, not from what it was when the increase was made). Before the date each
 * changed price the increase's scope raises waits as the new value raised by its percentage;
 * once the date has come (the daily job not yet run) the PATCH sets the price in force, so the
 * changed fields leave the pending values and the job cannot overwrite them. Answers the new
 * stored `pendingIncrease` (the earlier prices kept; null when nothing waits and none are kept),
 * or undefined when it stays as it is.
 */
export function pendingAfterPatch(before: Item, after: Item, today: DateOnly): string | null | undefined {
  const pending = pendingIncreaseOf(before)
  if (!pending) return undefined
  const terms = termsOf(pending, before)
  const raises = terms ? fieldsOf('tariffs', terms.scope).tariff : Object.keys(pending.values)
  const changed = raises.filter((name) => (before[name] ?? null) !== (after[name] ?? null))
  if (changed.length === 0) return undefined
  const values = { ...pending.values }
  if (pending.from <= today) for (const name of changed) delete values[name]
  else if (terms) {
    for (const name of changed) {
      const raised = increaseRow(after, [name], terms.percent)
      if (name in raised) values[name] = raised[name]!
      else delete values[name]
    }
  } else return undefined
  return serializeIncreases(Object.keys(values).length === 0 ? null : { ...pending, values }, earlierPricesOf(before))
}

/**
 * The percentage and scope the pending values were raised by. Stored with them since this fix;
 * one stored before it was made by applyIncrease on the tariff itself, which recorded both.
 * A version's copy of such an older one records its own increase instead: not known, left alone.
 */
function termsOf(pending: PendingIncrease, tariff: Item): { percent: Money; scope: IncreaseScope } | null {
  const own = tariff.increaseOriginalID === tariff.id && tariff.increaseEffectiveDate === pending.from
  const percent = parseMoney(pending.percent ?? (own ? tariff.increasePercent : null))
  const scope = pending.scope ?? (own ? tariff.increaseScope : null)
  return percent !== null && typeof scope === 'string' ? { percent, scope: scope as IncreaseScope } : null
}
