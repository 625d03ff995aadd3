import type { DateOnly } from '../dates/date-only.js'

/** The collections whose items carry a `contractEndDate` (billing-api.md). */
export const contractEndResources = ['customers', 'numbers', 'services'] as const
export type ContractEndResource = (typeof contractEndResources)[number]

/** What the `contract-end-notices` job reads: the items whose contract end is to be announced. */
export interface ContractEnds {
  /**
   * Up to `limit` IDs of `resource` after `afterID`, in ID order: the items not dropped whose
   * `contractEndDate` is from `from` to `to` (both included) and not the end date already
   * announced (`contractEndNoticeFor`). Chosen by the database, on an index of the end date: an
   * item without one, or far from it, is never read.
   */
  due(resource: ContractEndResource, from: DateOnly, to: DateOnly, afterID: string, limit: number): Promise<string[]>
}
