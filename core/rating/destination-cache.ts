import { toDestinationTables, type LoadedDestinations } from '../destinations/prefix-table.js'
import type { RatingData } from '../ports/rating-data.js'

const loadedBy = new WeakMap<object, { readonly version: string; readonly loaded: LoadedDestinations }>()

/**
 * The destination tables, built once and kept, per store, until a destination is added or
 * removed (`destinationsVersion`): reading and indexing 100,000 prefixes took longer than
 * looking up a 50,000-row file's numbers in them (bench/rating-destinations.ts; RESULTS).
 */
export async function destinationTablesOf(owner: object, data: RatingData): Promise<LoadedDestinations> {
  const version = await data.destinationsVersion()
  const kept = loadedBy.get(owner)
  if (kept && kept.version === version) return kept.loaded
  const loaded = toDestinationTables(await data.destinations())
  loadedBy.set(owner, { version, loaded })
  return loaded
}
