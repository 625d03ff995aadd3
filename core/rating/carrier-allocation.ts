/** The preset name that lets every carrier's records bill a number (the default when unset). */
export const ALL_CARRIERS = 'All Carriers'

/** What allocation reads of a number and of its customer (contract 17.1). */
export interface CarrierAllocated {
  readonly carrierCallAllocation?: string | null
}

/**
 * Whether a record from `carrier` may bill the number: the number's own `carrierCallAllocation`
 * wins, else its customer's; unset or `All Carriers` allows every carrier. Names compare
 * ignoring case and surrounding spaces, as carriers' files spell them loosely.
 */
export function allowsCarrier(number: CarrierAllocated, customer: CarrierAllocated, carrier: string): boolean {
  const allocation = number.carrierCallAllocation || customer.carrierCallAllocation
  if (!allocation || allocation === ALL_CARRIERS) return true
  return allocation.trim().toLowerCase() === carrier.trim().toLowerCase()
}
