/** The median of some numbers (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** The p-th percentile (0..100), nearest rank. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
}

/** Milliseconds since `start` (from performance.now()). */
export const since = (start: number): number => performance.now() - start

/** Times `work` and returns its result with the elapsed milliseconds. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now()
  const value = await work()
  return { value, ms: since(start) }
}

/** Rounds for display: 3 significant digits under 100, whole numbers above. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n)
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-GB')
  return Number(n.toPrecision(3)).toString()
}
