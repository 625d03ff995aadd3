import { loadavg } from 'node:os'
import { PrefixTable } from '../core/destinations/prefix-table.js'
import type { Destination } from '../core/ports/rating-data.js'
import { log } from './support/report.js'

/**
 * Contract 17.2's choice of structure: the longest-prefix lookup of 1,000,000 dialled numbers in
 * a 100,000-prefix table, by the digit trie `PrefixTable` and by a sorted array searched by binary
 * search (the prefixes of the number, longest first, each looked for), in the same run.
 */
const PREFIXES = 100_000
const LOOKUPS = 1_000_000
const destinations: Destination[] = []
const seen = new Set<string>()
for (let k = 0; seen.size < PREFIXES; k++) {
  const prefix = String(20 + (k % 79)) + String(k).padStart(6, '0').slice(0, 1 + (k % 6))
  if (seen.has(prefix)) continue
  seen.add(prefix)
  destinations.push({ prefix, chargeBand: `B${k % 50}`, callClass: 'international' })
}
const numbers = Array.from({ length: LOOKUPS }, (_, n) => `${20 + ((n * 7) % 79)}${String((n * 7919) % 10_000_000).padStart(7, '0')}${n % 1000}`)

class SortedPrefixes {
  private readonly keys: string[]
  private readonly values: Destination[]
  private readonly longest: number
  constructor(list: readonly Destination[]) {
    const sorted = [...list].sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0))
    this.keys = sorted.map((d) => d.prefix)
    this.values = sorted
    this.longest = Math.max(...list.map((d) => d.prefix.length))
  }
  longestPrefix(digits: string): Destination | null {
    for (let len = Math.min(this.longest, digits.length); len > 0; len--) {
      const key = digits.slice(0, len)
      let lo = 0
      let hi = this.keys.length - 1
      while (lo <= hi) {
        const mid = (lo + hi) >> 1
        const k = this.keys[mid]
        if (k === key) return this.values[mid]
        if (k < key) lo = mid + 1
        else hi = mid - 1
      }
    }
    return null
  }
}

const time = (name: string, find: (n: string) => Destination | null) => {
  let found = 0
  const start = performance.now()
  for (const n of numbers) if (find(n)) found++
  const ns = ((performance.now() - start) * 1e6) / LOOKUPS
  log(`${name}: ${ns.toFixed(0)} ns a lookup, ${found.toLocaleString('en-GB')} found, load ${loadavg()[0].toFixed(2)}`)
  return { ns, found }
}
const t0 = performance.now()
const trie = new PrefixTable(destinations)
log(`trie built in ${(performance.now() - t0).toFixed(0)} ms`)
const t1 = performance.now()
const sorted = new SortedPrefixes(destinations)
log(`sorted array built in ${(performance.now() - t1).toFixed(0)} ms`)
const results: Record<string, number[]> = { trie: [], sorted: [] }
for (let round = 0; round < 3; round++) {
  const a = time('trie', (n) => trie.longestPrefix(n))
  const b = time('sorted array', (n) => sorted.longestPrefix(n))
  if (a.found !== b.found) throw new Error('the two structures disagree')
  results.trie.push(a.ns)
  results.sorted.push(b.ns)
}
const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[1]
log(`median: trie ${med(results.trie).toFixed(0)} ns, sorted array ${med(results.sorted).toFixed(0)} ns (${(med(results.sorted) / med(results.trie)).toFixed(1)}x the trie)`)
