import { catalogue } from '../../core/fields/catalogue.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'

/** The resources that have tables so far, by name. */
const stored: ResourceName[] = [
  'customers',
  'numbers',
  'services',
  'features',
  'tariffs',
  'fixedFeeTariffs',
  'tariffDetails',
  'fixedFeeTariffDetails',
  'customerContacts',
  'disasterRecoveryFiles',
  'transactions',
  'billingRuns',
  'invoices',
  'calls',
  'usageFiles',
]

export const storedResources: ReadonlyMap<ResourceName, Resource> = new Map(stored.map((n) => [n, catalogue[n]]))
