import { BillingError } from '../errors.js'
import type { Item } from '../fields/item.js'
import type { PlatformContext } from '../platform.js'
import { createItem } from './resources.js'
import { parentOwner } from './scopes.js'
import { checkDestination } from '../destinations/import-destinations.js'

/**
 * Adds one prefix to a destination table (contract 17.2): the table first (`404001`), then the
 * body (`readBody`, so a body problem of an unknown table answers the table's absence), checked
 * as a CSV line of prefixes is.
 */
export async function addDestination(ctx: PlatformContext, destinationTableID: string, readBody: () => Promise<Record<string, unknown>> | Record<string, unknown>): Promise<Item> {
  const owner = await parentOwner(ctx.store, 'destinationTables', destinationTableID, 'destinationTableID')
  const body = await readBody()
  const checked = checkDestination(body.prefix, body.callClass)
  return createItem(ctx, ctx.resources.get('destinations')!, { ...body, ...checked }, owner).catch((error: unknown) => {
    // The unique key is (table, prefix): say which prefix, as a CSV of them does.
    if (!(error instanceof BillingError) || error.code !== 'unique_taken') throw error
    throw new BillingError('unique_taken', `prefix ${checked.prefix} is in the table already`, 'Give another prefix, or delete the destination that has it first.')
  }) as Promise<Item>
}
