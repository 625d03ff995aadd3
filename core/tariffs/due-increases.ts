import type { Values } from '../fields/item.js'
import { recordChanges } from '../history/record-change.js'
import type { PlatformContext } from '../platform.js'
import { earlierPricesOf, pendingIncreaseOf, serializeIncreases } from './pending-increase.js'

/**
 * The daily job's part for tariffs: a call tariff's own prices raised from a date that has come
 * (contract 17.5) move into its fields, so the tariff reads as it prices. The prices they replace
 * are kept with the date they end (`EarlierPrices`): a call from before it, rated late, by a
 * billing run or when allowances are re-allocated, keeps the price in force at its start. Each tariff
 * is locked and read again, so a date is applied once however many workers run the job; its
 * history entry and event (contract 12) commit with it. Returns the tariffs changed.
 */
export async function applyDueIncreases(ctx: Pick<PlatformContext, 'store' | 'clock'>): Promise<number> {
  const today = ctx.clock.today()
  const waiting = await ctx.store.repository('tariffs').list({ where: [{ op: 'isNull', column: 'pendingIncrease', value: false }], limit: Number.MAX_SAFE_INTEGER, storedOnly: true })
  let changed = 0
  for (const candidate of waiting) {
    const due = pendingIncreaseOf(candidate)
    if (!due || due.from > today) continue
    changed += await ctx.store.transaction(async (store) => {
      const tariffs = store.repository('tariffs')
      const tariff = await tariffs.getForUpdate(candidate.id)
      const pending = tariff && pendingIncreaseOf(tariff)
      if (!pending || pending.from > today) return 0
      const current = tariff as Values
      const replaced = Object.fromEntries(Object.keys(pending.values).filter((k) => current[k] !== pending.values[k]).map((k) => [k, current[k] ?? null]))
      const earlier = [...earlierPricesOf(tariff), ...(Object.keys(replaced).length > 0 ? [{ until: pending.from, values: replaced }] : [])]
      const after = await tariffs.update(tariff.id, { ...pending.values, pendingIncrease: serializeIncreases(null, earlier), updatedStamp: ctx.clock.now() })
      // The worker's update of the tariff, recorded as any other (its actor is `system`).
      await recordChanges(store, ctx.clock, [{ resource: tariffs.resource, action: 'update', before: tariff, after: after! }])
      return 1
    })
  }
  return changed
}
