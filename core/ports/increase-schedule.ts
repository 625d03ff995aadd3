import type { DateOnly } from '../dates/date-only.js'

/** Where the annual increase job finds its work (contract 11). */
export interface IncreaseSchedule {
  /**
   * IDs of features, in ID order after `afterID`, that may have an annual increase due on or
   * before `today`: not dropped, with a charge of their own, whose effective reference date (the
   * feature's, else its number's or service's, else its customer's) is on or before `today` and
   * whose effective profile, resolved the same way, is one of `profiles`.
   */
  featuresDue(today: DateOnly, profiles: readonly string[], afterID: string | null, limit: number): Promise<string[]>
}
