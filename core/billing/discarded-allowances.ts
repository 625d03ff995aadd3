import type { Stamp } from '../dates/stamp.js'
import type { PlatformContext } from '../platform.js'
import type { DiscardedDrafts } from '../ports/ledger.js'
import type { Store } from '../ports/store.js'
import { nextMonth, reallocateAllowances } from '../rating/reallocate-allowances.js'
import { loadRatingShared, TouchedMonths } from '../rating/rating-context.js'

/**
 * Allocates again the allowances of the months whose calls a discarded run unbilled (contract
 * 16.1). While the run was in Review its calls counted as billed, as on an invoice (approved,
 * a draft is billed as drafted), so a late file's earlier calls got only what they had left.
 * Discarded, those calls are not invoiced and never will be as drafted: the month goes back to
 * start order (contracts 11 and 17.6), as if no run had drafted it, before a corrected run bills
 * it. Only the customers (so their pools) and months the run's `Call Charges` rows covered,
 * from each row's first call's start to its last's. Returns how many calls changed.
 */
export async function reallocateDiscarded(ctx: PlatformContext, store: Store, calls: DiscardedDrafts['calls'], now: Stamp): Promise<number> {
  const touched = new TouchedMonths()
  for (const { customerID, from, to } of calls) {
    const last = to.slice(0, 7)
    for (let month = from.slice(0, 7); month <= last; month = nextMonth(month)) touched.add(customerID, `${month}-01T00:00:00.000Z` as Stamp)
  }
  if (touched.customers === 0) return 0
  return reallocateAllowances(store.rating, await loadRatingShared(store.rating, ctx.presets.discountPlans), touched, now)
}
