import { addDays, maxDate, type DateOnly } from '../dates/date-only.js'
import type { RunCustomer } from '../ports/run-fields.js'
import type { Store } from '../ports/store.js'

type FinalBillCustomer = Pick<RunCustomer, 'isFinalBill' | 'finalBillDate'>

/** The finalBillDate of a customer in final bill, else null. */
export const finalBillOf = (customer: FinalBillCustomer): DateOnly | null => (customer.isFinalBill ? customer.finalBillDate : null)

/**
 * The last day a run with `cutoff` bills a customer through: the cutoff, or a later final-bill
 * date (contract 9.5: a customer in final bill gets its final invoice through dateFinalBill).
 * Its recurring charges, its calls and its invoice all reach that far, or a final invoice would
 * leave behind what the customer used before leaving.
 */
export function billedThrough(customer: FinalBillCustomer, cutoff: DateOnly): DateOnly {
  const finalBill = finalBillOf(customer)
  return finalBill ? maxDate(cutoff, finalBill) : cutoff
}

/**
 * The last day a run with `cutoff` rates unrated calls through: the latest `billedThrough` of a
 * customer whose final invoice is still to come. An unrated call may have no customer yet, so the
 * bound is one for all calls: others' calls rated early are billed by their own later runs.
 * Few customers are in final bill at once, found on their partial index.
 */
export async function ratedThrough(store: Store, cutoff: DateOnly): Promise<DateOnly> {
  const finals = await store.repository('customers').list({
    where: [
      { op: 'eq', column: 'isFinalBill', value: true },
      { op: 'gte', column: 'finalBillDate', value: addDays(cutoff, 1) },
    ],
    limit: 100_000,
    storedOnly: true,
  })
  return finals.reduce((through, c) => (c.finalInvoicedDate === c.finalBillDate ? through : billedThrough(c, through)), cutoff)
}
