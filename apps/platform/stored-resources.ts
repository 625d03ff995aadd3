import { customers } from '../../core/fields/customers.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'

/** The resources that have tables, by name. */
export const storedResources: ReadonlyMap<ResourceName, Resource> = new Map<ResourceName, Resource>([[customers.name, customers]])
