import type { Item, Values } from '../fields/item.js'
import type { ResourceName } from '../fields/resource.js'
import type { Store } from '../ports/store.js'

const customerLimits = ['creditLimit', 'creditLimitCalls', 'creditLimitOverdue', 'creditLimitUnsent', 'expectedSpend']
/** A number's own limits, which its customer's credit alerts measure (contract 10.6, 17.7). */
const numberLimits = ['creditLimit', 'expectedSpend']

/** The customer whose credit alerts an update of its limits (or a number's) changes, else null. */
export function creditLimitOwner(name: ResourceName, item: Item, values: Values): string | null {
  if (name === 'customers' && customerLimits.some((f) => f in values)) return item.id
  if (name === 'numbers' && numberLimits.some((f) => f in values)) return typeof item.customerID === 'string' ? item.customerID : null
  return null
}

/**
 * Locks the customer whose credit alerts an update of a number may measure again (its body gives
 * a limit of the number), before the number is locked: the refresh writes the customer's row, and
 * every path in a customer's tree locks the customer before its children (lifecycle actions,
 * charge changes, creates under it), so taking them the other way round could deadlock with them.
 */
export async function lockCreditOwner(store: Store, name: ResourceName, id: string, body: unknown): Promise<void> {
  if (name !== 'numbers' || typeof body !== 'object' || body === null || !numberLimits.some((f) => Object.hasOwn(body, f))) return
  const number = await store.repository('numbers').get(id)
  if (typeof number?.customerID === 'string') await store.repository('customers').getForUpdate(number.customerID)
}
