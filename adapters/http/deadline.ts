import { HttpFailure } from './error-response.js'

/** Requests under way with a deadline, and the one timer that checks them. */
interface Pending {
  /** performance.now() past which the request fails. */
  readonly at: number
  readonly ms: number
  readonly fail: (error: unknown) => void
}

const pending = new Set<Pending>()
let timer: ReturnType<typeof setInterval> | undefined
let tick = 0

/**
 * Fails the requests whose deadline has passed. One interval timer serves every request in
 * flight: a timer set and cleared per request showed in the CPU time of a GET under load
 * (bench/get-customer.ts; figures in bench/RESULTS.md). It ticks at a tenth of the shortest deadline seen (at most every
 * 100 ms), so a deadline is kept to within that, and stops when nothing is pending.
 */
function sweep(): void {
  const now = performance.now()
  for (const p of pending) if (p.at <= now) p.fail(expired(p))
  if (pending.size === 0 && timer) {
    clearInterval(timer)
    timer = undefined
  }
}

/**
 * The answer of `work`, or a 503001 failure once `ms` have passed (no deadline when `ms` is
 * absent). Work that misses its deadline is not cancelled: it may still finish, which the
 * hint says, and an Idempotency-Key retry then replays its real answer.
 */
export function withDeadline<T>(work: Promise<T>, ms: number | undefined): Promise<T> {
  if (!ms) return work
  return new Promise<T>((resolve, reject) => {
    const entry: Pending = { at: performance.now() + ms, ms, fail: reject }
    pending.add(entry)
    const every = Math.max(1, Math.min(100, Math.floor(ms / 10)))
    if (!timer || every < tick) {
      if (timer) clearInterval(timer)
      tick = every
      timer = setInterval(sweep, every)
      timer.unref()
    }
    // A late failure of the abandoned work is handled (and logged) by the route; settling an
    // already failed promise again does nothing.
    work.then(
      (value) => {
        pending.delete(entry)
        resolve(value)
      },
      (error) => {
        pending.delete(entry)
        reject(error)
      },
    )
  })
}

function expired(p: Pending): HttpFailure {
  pending.delete(p)
  return new HttpFailure(
    'handler_timeout',
    `The request did not finish within ${p.ms} ms`,
    'It may still complete: check before repeating it, or repeat it with the same Idempotency-Key.',
    { 'retry-after': '1' },
  )
}
