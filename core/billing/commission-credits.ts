import type { Store } from '../ports/store.js'

/**
 * Gives a run that completes the credit notes no run has claimed yet (contract 16.3: a credit
 * note's clawback is in the statement of the run that carries it), in the transaction that
 * completes it. So each note's lines are clawed back by exactly one run, the first to complete
 * after the note was issued, and a completed run's statement never changes: a note issued on a
 * run's invoice date after it completed, or between two runs of one date, goes to the next.
 * A note committed while this runs is not seen, stays unclaimed, and goes to the next run.
 */
export async function claimCommissionCredits(store: Store, billingRunID: string): Promise<void> {
  await store.repository('creditNotes').updateWhere([{ op: 'isNull', column: 'commissionBillingRunID', value: true }], { commissionBillingRunID: billingRunID })
}
