import { quoteIdent } from './quote.js'

const statements = new Map<string, string>()

/**
 * The multi-row `INSERT … VALUES` for `count` rows, written once per shape: full chunks repeat
 * one text, which a statement cache keeps prepared. `conflict` is a clause written after it.
 */
export function valuesInsertSql(placeholder: (index: number) => string, table: string, columns: readonly string[], count: number, conflict?: string): string {
  const key = `${placeholder(1)}|${table}|${columns.join(',')}|${count}|${conflict ?? ''}`
  let text = statements.get(key)
  if (!text) {
    const tuples: string[] = []
    for (let r = 0, p = 1; r < count; r++) tuples.push(`(${columns.map(() => placeholder(p++)).join(', ')})`)
    text = `insert into ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) values ${tuples.join(', ')}${conflict ? ` ${conflict}` : ''}`
    if (statements.size > 64) statements.clear()
    statements.set(key, text)
  }
  return text
}
