/**
 * Numbers from the environment, checked: a bad value throws one message naming its variable, so
 * the process refuses to start (contract 13) rather than running on a value it cannot use.
 */

/**
 * The longest delay a timer takes (2^31 - 1 ms, about 24.8 days). Node fires a longer one after
 * 1 ms (with a TimeoutOverflowWarning), so a setting above it would time out at once.
 */
export const MAX_TIMER_MS = 2_147_483_647

/** A whole number of at least 1, or `fallback` when unset. */
export function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number (got ${value})`)
  return n
}

/** A whole number of at least 0, or `fallback` when unset. */
export function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, 0 or more (got ${value})`)
  return n
}

/** Milliseconds, 1 to `MAX_TIMER_MS` (0 too when `zero`), or `fallback` when unset. */
export function milliseconds(name: string, value: string | undefined, fallback: number, zero: 'zero allowed' | 'positive' = 'positive'): number {
  const n = zero === 'zero allowed' ? wholeNumber(name, value, fallback) : positiveInt(name, value, fallback)
  if (n > MAX_TIMER_MS) throw new Error(`${name} must be at most ${MAX_TIMER_MS} milliseconds, about 24.8 days (got ${value})`)
  return n
}

/** A port to listen on: 0..65535, 0 for any free one. */
export function listenPort(name: string, value: string): number {
  const n = Number(value)
  if (!/^\d+$/.test(value) || n > 65535) throw new Error(`${name} must be a port, 0..65535 (got ${value})`)
  return n
}
