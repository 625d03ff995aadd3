import type { Store } from '../ports/store.js'
import type { CommissionPresets } from '../presets/commission-profiles.js'

/**
 * Gives a run that completes the credit notes no run has claimed yet (contract 16.3: a credit
 * note's clawback is in the statement of the run that carries it), in the transaction that
 * completes it. So each note's lines are clawed back by exactly one run, the first to complete
 * after the note was issued, and a completed run's statement never changes: a note issued on a
 * run's invoice date after it completed, or between two runs of one date, goes to the next.
 * A note committed while this runs is not seen, stays unclaimed, and goes to the next run.
 * The terms the run's rows earn on are kept here too (`Books.keepCommissionTerms`), so later
 * changes to a feature's commission fields, or to the percentages of the presets' profiles
 * (`presets`, as they are now), never reach its statement or a clawback of its rows.
 */
export async function claimCommissionCredits(store: Store, billingRunID: string, presets: CommissionPresets): Promise<void> {
  // Its rows' terms first: a note it claims may credit one of them.
  await store.books.keepCommissionTerms(billingRunID, presets.commissionProfiles)
  await store.repository('creditNotes').updateWhere([{ op: 'isNull', column: 'commissionBillingRunID', value: true }], { commissionBillingRunID: billingRunID })
}
