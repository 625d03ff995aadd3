import { BillingError } from '../errors.js'
import type { BillingRun } from '../fields/entity.js'
import type { Store } from '../ports/store.js'

/**
 * Whether a review run failed after its drafting completed, while its approval finalised the
 * drafts (contract 16.1): its history (written with each status change, contract 12) shows it
 * reached `Review`. Such a run may be approved again: the drafts left are finalised as an
 * approval does, those already numbered kept. One that failed while drafting has drafts for
 * some customers only, never reviewed whole: it can only be discarded.
 */
export async function failedAfterReview(store: Store, run: BillingRun): Promise<boolean> {
  const entries = await store.repository('history').list({
    where: [
      { op: 'eq', column: 'resource', value: 'billingRuns' },
      { op: 'eq', column: 'resourceID', value: run.id },
    ],
    limit: Number.MAX_SAFE_INTEGER,
  })
  return entries.some((e) => (e.changes as Record<string, readonly unknown[]> | null)?.status?.[1] === 'Review')
}

/**
 * A failed review run still holding drafts: their charges are on them (stored approved), so
 * no other run may be requested until it is approved again or discarded, as while it was in
 * `Review` (contract 16.1: "its drafts hold the charges"); else those customers' charges would
 * wait on drafts no run issues, and a later decision would raise invoices out of date order.
 * Drafts are only ever a review run's; a run in progress is found by its status before this.
 */
export async function assertNoDraftsHeld(store: Store): Promise<void> {
  const [draft] = await store.repository('invoices').list({ where: [{ op: 'eq', column: 'status', value: 'Draft' }], limit: 1 })
  if (draft) {
    throw new BillingError(
      'locked',
      `Billing run ${draft.billingRunID} failed with draft invoices left`,
      'Approve it again (if it failed while approved) or discard it: PATCH its status to "Approved" or "Discarded".',
    )
  }
}

/**
 * A failed review run is decided only once no worker still holds one of its partitions: a worker
 * bills its partition to the end once claimed (bill-partition.ts), so one still drafting or
 * approving beside the run's failure would write after a discard, or beside an approval again.
 * A worker that failed gives its partition up (run-billing.ts); one killed loses it with its lease.
 */
export async function assertNoWorkerOn(store: Store, run: BillingRun): Promise<void> {
  if ((await store.runPartitions.totals(run.id)).active > 0) {
    throw new BillingError('locked', `Billing run ${run.id} failed, but a worker is still finishing its part of it`, 'Try again in a minute, once the workers have stopped.')
  }
}
