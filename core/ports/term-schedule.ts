import type { DateOnly } from '../dates/date-only.js'
import type { Feature } from '../fields/entity.js'

/** A feature whose renewal date is due, with its last change's stamp (what its update's history entry shows as before). */
export type RenewalDue = Pick<Feature, 'id' | 'startDate' | 'renewalDate' | 'renewalPeriodLength' | 'renewalPeriodLengthType' | 'updatedStamp'>

/** Where the work that follows features' dates is found (contract 11): annual increases, renewals. */
export interface TermSchedule {
  /**
   * IDs of features, in ID order after `afterID`, that may have an annual increase due on or
   * before `today`: not dropped, with a charge of their own, whose effective reference date (the
   * feature's, else its number's or service's, else its customer's) is on or before `today` and
   * whose effective profile, resolved the same way, is one of `profiles`.
   */
  increasesDue(today: DateOnly, profiles: readonly string[], afterID: string | null, limit: number): Promise<string[]>
  /** Up to `limit` features with a renewal length whose renewal date is before `before`, earliest first. */
  renewalsDue(before: DateOnly, limit: number): Promise<RenewalDue[]>
}
