/** A statement's total time over a run: its SQL with parameter lists folded, how often it ran. */
export interface StatementTime {
  readonly sql: string
  readonly count: number
  readonly ms: number
}

/**
 * Sums the time of each statement a process runs (the platform's `onQuery`), so a bench can say
 * where a run's database time goes: statements that differ only in how many parameters a list
 * or a multi-row VALUES has are one statement here.
 */
export class StatementTimes {
  private readonly byText = new Map<string, { count: number; ms: number }>()

  readonly add = (sql: string, ms: number): void => {
    const key = fold(sql)
    const entry = this.byText.get(key)
    if (entry) {
      entry.count++
      entry.ms += ms
    } else this.byText.set(key, { count: 1, ms })
  }

  /** The `n` statements that took longest, longest first. */
  top(n: number): StatementTime[] {
    return [...this.byText]
      .map(([sql, { count, ms }]) => ({ sql, count, ms: Math.round(ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, n)
  }
}

/** One line, placeholders as `?`, lists of them (and VALUES rows of them) as one `…`, at most 120 characters. */
function fold(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '?')
    .replace(/\?(, \?)+/g, '…')
    .replace(/\(…\)(, \(…\))+/g, '(…), …')
    .trim()
    .slice(0, 120)
}
