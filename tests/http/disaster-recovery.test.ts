import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { prefersArchive } from '../../adapters/http/routes/disaster-recovery-routes.js'
import { findMissingArchives } from '../../core/disaster-recovery/archive-files.js'
import { generateArchive } from '../../core/disaster-recovery/archive-jobs.js'
import { disasterRecoveryFiles } from '../../core/fields/disaster-recovery-files.js'
import type { Item } from '../../core/fields/item.js'
import { BASE, openHarness, type ApiResponse, type Harness } from '../support/harness.js'
import { capturedLogger } from '../support/log-lines.js'
import { activeTargets } from '../support/targets.js'

const PASSWORD = 'dr-http-password-7f3a'
const START = '2026-01-15T10:00:00.000Z'
const SEVEN_ZIP = [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]
const ARCHIVE = { accept: 'application/x-7z-compressed' }
const wireFields = disasterRecoveryFiles.fields.filter((f) => !f.internal).map((f) => f.name)

interface Ctx {
  h: Harness
  dir: string
  item: Item
  /** Every response of the suite, checked at the end for the password. */
  seen: ApiResponse[]
  logs: ReturnType<typeof capturedLogger>
}

const get = async (ctx: Ctx, path: string, options: Parameters<Harness['request']>[3] = {}) => {
  const r = await ctx.h.request('GET', path, undefined, options)
  ctx.seen.push(r)
  return r
}

/** The raw bytes of a download (the harness reads bodies as text). */
async function download(ctx: Ctx, url: string, headers: Record<string, string>) {
  const res = await ctx.h.platform.app.request(url, { headers: { authorization: `Bearer ${ctx.h.keys.admin}`, ...headers } })
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}

test_accept()

for (const target of activeTargets()) {
  const test = suite<Ctx>(`http disasterRecoveryFiles [${target}]`)
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'dr-http-'))
    ctx.seen = []
    ctx.logs = capturedLogger()
    ctx.h = await openHarness(target, { now: START, config: { drDir: ctx.dir, drPassword: PASSWORD, logger: ctx.logs.logger } })
    await ctx.h.request('POST', '/customers', { companyName: 'Archived Ltd', accountNumber: 'DR-HTTP' })
    ctx.item = await generateArchive(ctx.h.platform.context)
  })
  test.after(async (ctx) => {
    await ctx.h.close()
    rmSync(ctx.dir, { recursive: true, force: true })
  })

  test('the list holds the unexpired files with every wire field and nothing internal', async (ctx) => {
    for (const path of ['/disasterRecoveryFiles', '/disasterRecoveryFiles/']) {
      const r = await get(ctx, path)
      assert.is(r.status, 200, r.text)
      assert.is(r.body.length, 1)
      const [file] = r.body
      assert.equal(Object.keys(file).sort(), [...wireFields].sort())
      assert.equal(file, {
        generatedDate: '2026-01-15',
        expiresDate: '2026-01-22',
        id: ctx.item.id,
        status: ['Complete', 'Encrypted'],
        filename: ctx.item.filename,
        createdStamp: START,
        updatedStamp: START,
      })
    }
    const paged = await get(ctx, `/disasterRecoveryFiles?limit=1&idAfter=${ctx.item.id}`)
    assert.equal(paged.body, [])
    const bad = await get(ctx, '/disasterRecoveryFiles?bogus=1')
    assert.is(bad.body.error_code, 400103)
  })

  test('GET one answers JSON metadata unless the archive type is asked for', async (ctx) => {
    const path = `/disasterRecoveryFiles/${ctx.item.id}`
    const list = await get(ctx, '/disasterRecoveryFiles')
    for (const accept of [undefined, 'application/json', '*/*', 'text/html', 'application/*', 'application/json, application/x-7z-compressed;q=0.5']) {
      const r = await get(ctx, path, accept ? { headers: { accept } } : {})
      assert.is(r.status, 200, `${accept}: ${r.text}`)
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/, String(accept))
      assert.equal(r.body, list.body[0], String(accept))
    }
  })

  test('Accept: application/x-7z-compressed streams the archive itself', async (ctx) => {
    const onDisk = readFileSync(join(ctx.dir, ctx.item.filename as string))
    const url = `${BASE}/disasterRecoveryFiles/${ctx.item.id}`
    for (const accept of [ARCHIVE.accept, 'application/x-7z-compressed, */*;q=0.1', 'application/json;q=0.2, application/x-7z-compressed']) {
      const { res, bytes } = await download(ctx, url, { accept })
      assert.is(res.status, 200, accept)
      assert.is(res.headers.get('content-type'), 'application/x-7z-compressed')
      assert.is(res.headers.get('content-length'), String(onDisk.length))
      assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`attachment; filename="${ctx.item.filename}"`))
      assert.ok(res.headers.get('x-request-id'))
      assert.equal([...bytes.subarray(0, 6)], SEVEN_ZIP)
      assert.ok(Buffer.from(bytes).equals(onDisk), 'the bytes are the file')
      assert.is(Buffer.from(bytes).indexOf(PASSWORD), -1)
      res.headers.forEach((value, name) => assert.not.ok(value.includes(PASSWORD), name))
    }
  })

  test('over a real socket the download arrives whole', async (ctx) => {
    const base = await ctx.h.listen()
    const res = await fetch(`${base}${BASE}/disasterRecoveryFiles/${ctx.item.id}`, {
      headers: { authorization: `Bearer ${ctx.h.keys.admin}`, ...ARCHIVE },
    })
    const bytes = Buffer.from(await res.arrayBuffer())
    assert.is(res.status, 200)
    assert.is(res.headers.get('content-length'), String(ctx.item.size))
    assert.ok(bytes.equals(readFileSync(join(ctx.dir, ctx.item.filename as string))))
  })

  test('every route needs dataProtectionDownload (403102) after a valid key (401001)', async (ctx) => {
    for (const path of ['/disasterRecoveryFiles', `/disasterRecoveryFiles/${ctx.item.id}`, '/disasterRecoveryFiles/999999']) {
      for (const headers of [{}, ARCHIVE]) {
        const low = await get(ctx, path, { key: ctx.h.keys.low, headers })
        assert.is(low.status, 403, path)
        assert.equal(Object.keys(low.body), ['error', 'error_code', 'hint'])
        assert.is(low.body.error_code, 403102)
        const none = await get(ctx, path, { key: null, headers })
        assert.is(none.body.error_code, 401001)
      }
    }
  })

  test('unknown IDs answer 404102', async (ctx) => {
    for (const id of ['999999', 'abc', '0']) {
      for (const headers of [{}, ARCHIVE]) {
        const r = await get(ctx, `/disasterRecoveryFiles/${id}`, { headers })
        assert.is(r.status, 404, id)
        assert.is(r.body.error_code, 404102, id)
      }
    }
  })

  test('methods other than GET are refused: the collection is read-only', async (ctx) => {
    for (const [method, path] of [['POST', '/disasterRecoveryFiles'], ['DELETE', `/disasterRecoveryFiles/${ctx.item.id}`], ['PATCH', `/disasterRecoveryFiles/${ctx.item.id}`]]) {
      const r = await ctx.h.request(method, path, {})
      ctx.seen.push(r)
      assert.is(r.status, 405, `${method} ${path}`)
    }
  })

  test('a file past its expiry date is neither listed nor served (404102)', async (ctx) => {
    try {
      ctx.h.clock.set('2026-01-22T00:00:00.000Z')
      assert.equal((await get(ctx, '/disasterRecoveryFiles')).body, [])
      for (const headers of [{}, ARCHIVE]) {
        const r = await get(ctx, `/disasterRecoveryFiles/${ctx.item.id}`, { headers })
        assert.is(r.status, 404)
        assert.is(r.body.error_code, 404102)
      }
    } finally {
      ctx.h.clock.set(START)
    }
  })

  test('a file gone from the disk answers 404102 for the archive, not a 500; its metadata and the log say so', async (ctx) => {
    const other = await generateArchive(ctx.h.platform.context)
    rmSync(join(ctx.dir, other.filename as string))
    const r = await get(ctx, `/disasterRecoveryFiles/${other.id}`, { headers: ARCHIVE })
    assert.is(r.status, 404)
    assert.is(r.body.error_code, 404102)
    assert.match(r.body.error, /missing from storage/)
    const meta = await get(ctx, `/disasterRecoveryFiles/${other.id}`)
    assert.equal(meta.body.status, ['Complete', 'Encrypted', 'Missing'])
    const missed = ctx.logs.entries().filter((e) => e.msg === 'dr-archive-missing')
    assert.equal(missed.map((e) => [e.level, e.filename]), [['error', other.filename]])
  })

  test('the start-up check marks every listed archive whose file is gone, and only those', async (ctx) => {
    const kept = await generateArchive(ctx.h.platform.context)
    const lost = await generateArchive(ctx.h.platform.context)
    rmSync(join(ctx.dir, lost.filename as string))
    const missing = await findMissingArchives(ctx.h.platform.context)
    assert.ok(missing.some((m) => m.id === lost.id))
    assert.not.ok(missing.some((m) => m.id === kept.id))
    assert.ok((await get(ctx, `/disasterRecoveryFiles/${lost.id}`)).body.status.includes('Missing'))
    assert.equal((await get(ctx, `/disasterRecoveryFiles/${kept.id}`)).body.status, ['Complete', 'Encrypted'])
    const again = await findMissingArchives(ctx.h.platform.context)
    assert.ok(again.some((m) => m.id === lost.id), 'still missing, still reported')
  })

  test('the password appears in no response', async (ctx) => {
    assert.ok(ctx.seen.length > 30)
    for (const r of ctx.seen) {
      assert.not.ok(r.text.includes(PASSWORD), r.text)
      r.headers.forEach((value, name) => assert.not.ok(value.includes(PASSWORD), name))
    }
  })

  test.run()
}

function test_accept() {
  const accept = suite('Accept negotiation for disaster recovery files')
  accept('the archive only when its type is named and preferred to JSON', () => {
    const yes = ['application/x-7z-compressed', 'APPLICATION/X-7Z-COMPRESSED', 'application/x-7z-compressed;q=0.9, application/json;q=0.5', 'text/html, application/x-7z-compressed']
    const no = [null, '', '*/*', 'application/*', 'application/json', 'application/x-7z-compressed;q=0', 'application/json, application/x-7z-compressed', 'application/zip']
    for (const a of yes) assert.ok(prefersArchive(a), String(a))
    for (const a of no) assert.not.ok(prefersArchive(a), String(a))
  })
  accept.run()
}
