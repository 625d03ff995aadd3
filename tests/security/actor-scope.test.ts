import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { asActor, currentActor } from '../../adapters/security/actor-scope.js'

const test = suite('security actor scope: who history names')

const tick = () => new Promise((r) => setTimeout(r, 1))

test('work inside asActor sees its actor across awaits; outside, and once all work has ended, the system', async () => {
  const a = { apiKeyName: 'a', requestID: 'r-a' }
  const b = { apiKeyName: 'b', requestID: 'r-b' }
  let releaseA!: () => void
  const gateA = new Promise<void>((r) => (releaseA = r))
  const seen: string[] = []
  const first = asActor(a, async () => {
    await gateA
    seen.push(currentActor().apiKeyName)
  })
  // A second unit ends while the first is still waiting: the first keeps its actor.
  await asActor(b, async () => {
    await tick()
    seen.push(currentActor().apiKeyName)
  })
  releaseA()
  await first
  assert.equal(seen, ['b', 'a'])
  assert.is(currentActor().apiKeyName, 'system')
  // Entered again after the scope was switched off.
  assert.is(await asActor(b, async () => (await tick(), currentActor().requestID)), 'r-b')
  assert.is(asActor(a, () => currentActor().apiKeyName), 'a')
  assert.throws(
    () =>
      asActor(a, () => {
        throw new Error('refused')
      }),
    /refused/,
  )
  assert.is(await asActor(a, () => Promise.reject(new Error('failed'))).catch((e: Error) => e.message), 'failed')
  assert.is(currentActor().apiKeyName, 'system')
})

test.run()
