/**
 * The four levels that carry a lifecycle, and how their items hang together: numbers and
 * services belong to a customer; a feature belongs to a customer and optionally to one number
 * or one service.
 */
export const levels = ['customers', 'numbers', 'services', 'features'] as const
export type Level = (typeof levels)[number]

export const isLevel = (name: string): name is Level => (levels as readonly string[]).includes(name)

/**
 * An item named across levels, `'customers:12'`, `'numbers:5'`. Stored in `droppedBy` to name the
 * ancestor whose drop cascaded.
 */
export type ItemKey = `${Level}:${string}`

export const itemKey = (level: Level, id: string): ItemKey => `${level}:${id}`

/** The level and id of a key, or null when it is not one. */
export function parseItemKey(key: string): { level: Level; id: string } | null {
  const at = key.indexOf(':')
  if (at < 0) return null
  const level = key.slice(0, at)
  const id = key.slice(at + 1)
  return isLevel(level) && id !== '' ? { level, id } : null
}

/** The owner IDs of an item; all null on a customer. */
export interface ParentIds {
  readonly customerID: string | null
  readonly numberID: string | null
  readonly serviceID: string | null
}

/** What is wrong with an item's owner IDs for its level, or null when they follow the rules. */
export function parentProblem(level: Level, parents: ParentIds): string | null {
  const { customerID, numberID, serviceID } = parents
  if (level === 'customers') {
    return customerID || numberID || serviceID ? 'a customer has no parent' : null
  }
  if (!customerID) return `an item of ${level} belongs to a customer`
  if (level !== 'features') return numberID || serviceID ? `an item of ${level} belongs to a customer only` : null
  return numberID && serviceID ? 'a feature belongs to one number or one service, not both' : null
}

/**
 * The keys of an item's ancestors, nearest first: a feature's number or service (if any), then
 * its customer.
 */
export function ancestorKeys(level: Level, parents: ParentIds): ItemKey[] {
  if (level === 'customers' || !parents.customerID) return []
  const keys: ItemKey[] = []
  if (level === 'features' && parents.numberID) keys.push(itemKey('numbers', parents.numberID))
  if (level === 'features' && parents.serviceID) keys.push(itemKey('services', parents.serviceID))
  keys.push(itemKey('customers', parents.customerID))
  return keys
}
