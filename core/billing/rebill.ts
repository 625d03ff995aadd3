import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { planLedgerDiff, type BillingCutoff } from './feature-billing.js'
import { ledgerWrites, mergeWrites } from './ledger-writes.js'
import { billingInputs } from './billing-inputs.js'
import type { RunCustomer, RunFeature } from '../ports/run-fields.js'

/**
 * Reconciles features with their ledger in the caller's transaction. With no cutoff it only
 * revisits periods already charged: after a drop (charges past the bill-to date removed or
 * refunded), a reinstate (charged again) or a final bill.
 */
export async function rebillFeatures(
  ctx: Pick<PlatformContext, 'presets' | 'clock'>,
  store: Store,
  features: readonly RunFeature[],
  customer: RunCustomer,
  at: BillingCutoff = { cutoff: null, chargeable: false },
  billingRunID: string | null = null,
): Promise<number> {
  if (features.length === 0) return 0
  const ledger = await store.ledger.engineRows(features.map((f) => f.id))
  const inputs = await billingInputs(store, ctx.presets, features, new Map([[customer.id, customer]]))
  const now = ctx.clock.now()
  const writes = features.map((f) => {
    const { feature, history } = inputs.get(f.id)!
    const diff = planLedgerDiff(feature, history, ledger.get(f.id) ?? [], at)
    return ledgerWrites(f, customer, diff, ctx.presets, now, billingRunID)
  })
  const merged = mergeWrites(writes)
  await store.ledger.write(merged)
  return merged.inserts.length + merged.updates.length + merged.deletes.length
}
