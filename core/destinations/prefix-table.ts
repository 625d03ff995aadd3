import type { Destination } from '../ports/rating-data.js'

/**
 * A destination table's prefixes as a digit trie in typed arrays: a lookup walks the number's
 * digits once, remembering the last node a prefix ends at, so it costs the number's length
 * whatever the table's size, and allocates nothing. Node `n`'s child for digit `d` is
 * `children[n * 10 + d]` (0: none; node 0 is the root); `ends[n]` is 1 + the index of the
 * destination ending there (0: none). 100,000 prefixes of about 6 digits take a few MB.
 * Chosen over a sorted array searched by binary search, which measured slower per lookup
 * (bench/destination-lookup.ts; bench/RESULTS.md).
 */
export class PrefixTable {
  private children = new Int32Array(10 * 64)
  private ends = new Int32Array(64)
  private nodes = 1
  private readonly destinations: Destination[] = []

  constructor(destinations: Iterable<Destination>) {
    for (const d of destinations) this.add(d)
  }

  get size(): number {
    return this.destinations.length
  }

  /** The destination of the longest prefix `digits` starts with, or null. */
  longestPrefix(digits: string): Destination | null {
    let node = 0
    let found = 0
    for (let i = 0; i < digits.length; i++) {
      const d = digits.charCodeAt(i) - 48
      if (d < 0 || d > 9) return null
      node = this.children[node * 10 + d]
      if (node === 0) break
      if (this.ends[node] !== 0) found = this.ends[node]
    }
    return found === 0 ? null : this.destinations[found - 1]
  }

  private add(destination: Destination): void {
    let node = 0
    for (let i = 0; i < destination.prefix.length; i++) {
      const d = destination.prefix.charCodeAt(i) - 48
      if (d < 0 || d > 9) throw new Error(`prefix ${JSON.stringify(destination.prefix)} is not digits`)
      const at = node * 10 + d
      let next = this.children[at]
      if (next === 0) {
        next = this.grow()
        this.children[at] = next
      }
      node = next
    }
    if (node === 0) throw new Error('an empty prefix')
    this.destinations.push(destination)
    this.ends[node] = this.destinations.length
  }

  private grow(): number {
    if (this.nodes === this.ends.length) {
      const ends = new Int32Array(this.ends.length * 2)
      ends.set(this.ends)
      this.ends = ends
      const children = new Int32Array(this.children.length * 2)
      children.set(this.children)
      this.children = children
    }
    return this.nodes++
  }
}

/** Destination tables by name, as an import looks them up. */
export type DestinationTables = ReadonlyMap<string, PrefixTable>

/** The table prefixes are looked up in when the tariff names none (contract 17.2). */
export const DEFAULT_DESTINATION_TABLE = 'default'

/** Loaded tables, and the classes their prefixes give (an import reads those classes' tariffs). */
export interface LoadedDestinations {
  readonly tables: DestinationTables
  readonly classes: readonly string[]
}

/** Prefix rows, each with its table's name, as tables by name. */
export function toDestinationTables(rows: Iterable<Destination & { readonly table: string }>): LoadedDestinations {
  const byTable = new Map<string, Destination[]>()
  const classes = new Set<string>()
  for (const row of rows) {
    const list = byTable.get(row.table)
    const destination = { prefix: row.prefix, chargeBand: row.chargeBand, callClass: row.callClass }
    if (list) list.push(destination)
    else byTable.set(row.table, [destination])
    classes.add(row.callClass)
  }
  return { tables: new Map([...byTable].map(([name, list]) => [name, new PrefixTable(list)])), classes: [...classes] }
}
