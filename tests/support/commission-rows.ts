import type { DateOnly } from '../../core/dates/date-only.js'
import type { Money } from '../../core/money/money.js'
import type { CommissionRow, CommissionTerms } from '../../core/ports/books.js'

/** A feature's commission terms with nothing set. */
export const NO_TERMS: CommissionTerms = {
  commissionHolder: null, connectionChargeCommission: null, connectionChargeCommissionType: null, serviceChargeCommission: null, serviceChargeCommissionType: null,
  commissionHolderID2: null, connectionChargeCommission2: null, connectionChargeCommissionType2: null, serviceChargeCommission2: null, serviceChargeCommissionType2: null,
  connectionChargeCommissionProfile: null, serviceChargeCommissionProfile: null, callChargeCommissionProfile: null, serviceChargeInterval: null, startDate: null,
  profilePercents: null,
}

/** A ledger row as the commission statements read it: an invoiced Recurring Charge of nothing, with `over` and `terms` on it. */
export const commissionRow = (over: Partial<CommissionRow>, terms: Partial<CommissionTerms>): CommissionRow => ({
  source: 'invoice', transactionID: '1', kind: 'recurring', transactionType: 'Recurring Charge', transactionDate: '2026-01-31' as DateOnly,
  dateFrom: null, dateTo: null, amount: 0n as Money, creditedAmount: null, customerID: '1', currency: 'GBP', accountNumber: null,
  customerHolder: null, commissionReferenceDate: null, featureID: '1', saleType: null, ...over, terms: { ...NO_TERMS, ...terms },
})
