import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { withDeadline } from '../../adapters/http/deadline.js'
import { HttpFailure } from '../../adapters/http/error-response.js'

const test = suite('http deadlines (one timer for every request)')
const after = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms))

test('work that finishes in time answers with its value or its own failure', async () => {
  assert.is(await withDeadline(after(5, 'done'), 200), 'done')
  const failure = new Error('its own')
  try {
    await withDeadline(Promise.reject(failure), 200)
    assert.unreachable()
  } catch (e) {
    assert.is(e, failure)
  }
  const work = after(1, 7)
  assert.is(withDeadline(work, undefined), work, 'no deadline: the work itself')
})

test('work past its deadline fails with handler_timeout near the deadline; the others in flight are unaffected', async () => {
  const started = performance.now()
  const results = await Promise.allSettled([
    withDeadline(after(400, 'late'), 100),
    withDeadline(after(20, 'quick'), 100),
    withDeadline(after(150, 'slow but allowed'), 1000),
    ...Array.from({ length: 200 }, (_, i) => withDeadline(after(i % 30, i), 5000)),
  ])
  const [late, quick, allowed, ...many] = results
  assert.is(late.status, 'rejected')
  const error = (late as PromiseRejectedResult).reason
  assert.ok(error instanceof HttpFailure && error.code === 'handler_timeout', String(error))
  assert.equal(quick, { status: 'fulfilled', value: 'quick' })
  assert.equal(allowed, { status: 'fulfilled', value: 'slow but allowed' })
  assert.ok(many.every((r, i) => r.status === 'fulfilled' && r.value === i))
  const late2 = performance.now()
  await withDeadline(after(300, 'late'), 50).catch(() => {})
  const took = performance.now() - late2
  assert.ok(took >= 45 && took < 200, `failed after ${Math.round(took)} ms`)
  assert.ok(performance.now() - started < 2000)
})

test.run()
