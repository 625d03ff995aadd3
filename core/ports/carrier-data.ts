import type { Stamp } from '../dates/stamp.js'
import type { Destination } from '../destinations/prefix-table.js'

/** A destination row as an import of a table's prefixes writes it. */
export interface NewDestination extends Destination {
  readonly destinationTableID: string
  readonly description: string | null
  readonly createdStamp: Stamp
  readonly updatedStamp: Stamp
}

/** The bulk reads and writes of carriers' data (contract 17): many rows at once, in few statements. */
export interface CarrierData {
  /** The prefixes a destination table holds already. */
  prefixesOf(destinationTableID: string): Promise<Set<string>>
  /** Inserts destinations; a prefix the table holds already fails the insert (unique). */
  insertDestinations(rows: readonly NewDestination[]): Promise<void>
}
