import * as v from 'valibot'

/**
 * The presets number `contractEndNoticeDays`: how many days before an item's `contractEndDate`
 * the `contract-end-notices` job announces it (core/contract-ends/announce-contract-ends.ts).
 * Shipped 40: Ofcom General Condition C1.3 wants consumers and small businesses told between 10
 * and 40 days before their commitment ends, and a daily job at 40 days tells them at the first
 * moment it allows, leaving a missed day or two well inside it.
 *
 * Any whole number from 1 to 365, not only C1.3's 10 to 40: the window is the announcement's, for
 * every customer, number and service, protected or not (C1.3 binds only the protected), and the
 * event feeds the operator's own processes (a renewal call 90 days ahead, a letter its own mailer
 * times), which may want more lead time. Zero would announce only on the end day itself, and
 * beyond a year a typo (400 for 40) is more likely than an intention.
 */
export interface ContractEndNoticePresets {
  readonly contractEndNoticeDays: number
}

export const DEFAULT_CONTRACT_END_NOTICE_DAYS = 40

/** The setting's part of the presets file's schema. */
export const contractEndNoticeFile = {
  contractEndNoticeDays: v.optional(v.pipe(v.number(), v.integer('a whole number of days'), v.minValue(1, 'at least 1 day'), v.maxValue(365, 'at most 365 days'))),
}

/** The file's setting, else the base's, else the shipped 40. */
export function mergeContractEndNotice(file: { readonly contractEndNoticeDays?: number }, base: ContractEndNoticePresets | null): ContractEndNoticePresets {
  return { contractEndNoticeDays: file.contractEndNoticeDays ?? base?.contractEndNoticeDays ?? DEFAULT_CONTRACT_END_NOTICE_DAYS }
}
