import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { RecentKeys } from '../../adapters/persistence/repositories/recent-keys.js'
import { openPlatform } from '../../apps/platform/platform.js'
import { createApiKey } from '../../core/access/api-keys.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const unit = suite('persistence recent API keys')

const key = (hash: string, revokedStamp: string | null = null) => ({
  id: '1',
  name: 'k',
  keyHash: hash,
  expertLevel: 5,
  permissions: [],
  createdStamp: '2026-01-01T00:00:00.000Z',
  revokedStamp,
})

unit('a key is kept for the TTL and no longer; revoked keys and a TTL of 0 keep nothing', () => {
  let now = 0
  const recent = new RecentKeys(1000, () => now)
  recent.remember(key('a'))
  recent.remember(key('b', '2026-01-02T00:00:00.000Z'))
  assert.is(recent.get('a')?.keyHash, 'a')
  assert.is(recent.get('b'), undefined)
  now = 999
  assert.ok(recent.get('a'))
  now = 1000
  assert.is(recent.get('a'), undefined)
  const none = new RecentKeys(0, () => now)
  none.remember(key('a'))
  assert.is(none.get('a'), undefined)
  recent.remember(key('c'))
  recent.clear()
  assert.is(recent.get('c'), undefined)
})

unit.run()

for (const target of activeTargets().filter((t) => t !== 'sqlite-memory')) {
  const test = suite<{ h: Harness }>(`http API key lookups kept briefly [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { config: { keyCacheMs: 300 } })
  })
  test.after(async (ctx) => ctx.h.close())

  test('revoked through the platform: refused at once; from another process: within BILLING_KEY_CACHE_MS', async ({ h }) => {
    const store = h.platform.context.store
    const make = async (name: string) => (await createApiKey(store.apiKeys, h.platform.secrets, h.clock, { name, expertLevel: 5 })).secret
    const here = await make('revoked-here')
    assert.is((await h.request('GET', '/customers', undefined, { key: here })).status, 200)
    await store.apiKeys.revoke('revoked-here', h.clock.now())
    assert.is((await h.request('GET', '/customers', undefined, { key: here })).status, 401)

    const elsewhere = await make('revoked-elsewhere')
    assert.is((await h.request('GET', '/customers', undefined, { key: elsewhere })).status, 200)
    // Another process on the same database (the apikey command).
    const other = await openPlatform({ databaseUrl: h.target.databaseUrl, schema: h.target.schema, skipMigrations: true })
    try {
      await other.context.store.apiKeys.revoke('revoked-elsewhere', h.clock.now())
    } finally {
      await other.close()
    }
    await new Promise((r) => setTimeout(r, 350))
    const late = await h.request('GET', '/customers', undefined, { key: elsewhere })
    assert.is(late.status, 401)
    assert.is(late.body.error_code, 401001)
  })

  test.run()
}
