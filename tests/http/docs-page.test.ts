import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'

// The page and its files do not touch the database: one target is enough.
const test = suite<{ h: Harness }>('http docs page')
test.before(async (ctx) => {
  ctx.h = await openHarness('sqlite-memory')
})
test.after(async (ctx) => ctx.h.close())

const files = {
  '/docs/docs.js': 'text/javascript',
  '/docs/swagger-ui.css': 'text/css',
  '/docs/swagger-ui-bundle.js': 'text/javascript',
  '/docs/favicon-32x32.png': 'image/png',
  '/docs/favicon-16x16.png': 'image/png',
}

test('GET /docs is public HTML that loads only files of this server', async ({ h }) => {
  for (const path of ['/docs', '/docs/']) {
    const r = await h.request('GET', path, undefined, { key: null })
    assert.is(r.status, 200, path)
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/)
    assert.is(r.headers.get('cache-control'), 'no-cache')
    assert.not.match(r.text, /https?:\/\//, 'no CDN, no outside address')
    for (const file of Object.keys(files)) assert.ok(r.text.includes(`/backend/api/v1${file}`), file)
    assert.ok(r.text.includes('data-openapi="/backend/api/v1/openapi.json"'), 'the page names its document')
  }
})

test('the page files are public, typed, and cached (swagger-ui-dist by ETag)', async ({ h }) => {
  for (const [path, type] of Object.entries(files)) {
    const r = await h.request('GET', path, undefined, { key: null })
    assert.is(r.status, 200, path)
    assert.ok(r.headers.get('content-type')?.startsWith(type), path)
    assert.is(r.headers.get('x-content-type-options'), 'nosniff')
    assert.ok(r.text.length > 0, path)
    const etag = r.headers.get('etag')
    if (path === '/docs/docs.js') {
      assert.is(r.headers.get('cache-control'), 'no-cache')
      // One script for every mount point: the document's URL comes from the page.
      assert.match(r.text, /getAttribute\('data-openapi'\)/)
      continue
    }
    assert.is(r.headers.get('cache-control'), 'public, max-age=86400', path)
    assert.ok(etag, path)
    const again = await h.request('GET', path, undefined, { key: null, headers: { 'if-none-match': etag! } })
    assert.is(again.status, 304, path)
  }
})

test('other paths below /docs are not public and not served; other methods → 405', async ({ h }) => {
  assert.is((await h.request('GET', '/docs/swagger-ui.js', undefined, { key: null })).status, 401)
  assert.is((await h.request('GET', '/docs/package.json')).body.error_code, 404000)
  assert.is((await h.request('POST', '/docs', {}, { key: null })).body.error_code, 405001)
})

test.run()
