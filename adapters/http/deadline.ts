import { HttpFailure } from './error-response.js'

/**
 * The answer of `work`, or a 503001 failure once `ms` have passed (no deadline when `ms` is
 * absent). Work that misses its deadline is not cancelled: it may still finish, which the
 * hint says, and an Idempotency-Key retry then replays its real answer.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number | undefined): Promise<T> {
  if (!ms) return work
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HttpFailure(
            'handler_timeout',
            `The request did not finish within ${ms} ms`,
            'It may still complete: check before repeating it, or repeat it with the same Idempotency-Key.',
            { 'retry-after': '1' },
          ),
        ),
      ms,
    )
  })
  // A late failure of the abandoned work is handled (and logged) by the route; keep it from going unhandled here.
  work.catch(() => {})
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}
