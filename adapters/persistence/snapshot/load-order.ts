/**
 * Orders tables so that every table comes after the tables its foreign keys point at
 * (self-references aside); ties keep the given order. A cycle fails: no order loads it.
 */
export function loadOrder(tables: readonly string[], referencesOf: (table: string) => readonly string[]): string[] {
  const wanted = new Set(tables)
  const done = new Set<string>()
  const visiting = new Set<string>()
  const out: string[] = []
  const visit = (t: string, path: string[]) => {
    if (done.has(t)) return
    if (visiting.has(t)) throw new Error(`foreign keys form a cycle: ${[...path, t].join(' → ')}`)
    visiting.add(t)
    for (const r of referencesOf(t)) if (r !== t && wanted.has(r)) visit(r, [...path, t])
    visiting.delete(t)
    done.add(t)
    out.push(t)
  }
  for (const t of tables) visit(t, [])
  return out
}
