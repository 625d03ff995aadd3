/** The preset name that lets every carrier's records bill a number (the default when unset). */
export const ALL_CARRIERS = 'All Carriers'

/** What allocation reads of a number and of its customer (contract 17.1). */
export interface CarrierAllocated {
  readonly carrierCallAllocation?: string | null
}

/** A carrier's name as it is compared: without surrounding spaces, lower-cased (`sameCarrier`, a usage record's key). */
export const carrierKey = (carrier: string): string => carrier.trim().toLowerCase()

/** Carrier names as carriers' files and people spell them: ignoring case and surrounding spaces. */
export const sameCarrier = (a: string, b: string): boolean => carrierKey(a) === carrierKey(b)

/**
 * The one carrier whose records bill the number, or null when any carrier's may: the number's own
 * `carrierCallAllocation` wins, else its customer's; unset or `All Carriers` names none.
 */
export function allocatedCarrier(number: CarrierAllocated, customer: CarrierAllocated): string | null {
  const allocation = number.carrierCallAllocation || customer.carrierCallAllocation
  return !allocation || allocation === ALL_CARRIERS ? null : allocation
}

/** Whether a record from `carrier` may bill the number (contract 17.1). */
export function allowsCarrier(number: CarrierAllocated, customer: CarrierAllocated, carrier: string): boolean {
  const allocation = allocatedCarrier(number, customer)
  return allocation === null || sameCarrier(allocation, carrier)
}
