import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { path7za } from '7zip-bin'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Stamp } from '../../core/dates/stamp.js'
import { openHarness, type Harness } from '../support/harness.js'
import { startWorkerProcess, until } from '../support/platform-process.js'
import { activeTargets, type TargetName } from '../support/targets.js'

/**
 * Issue 49, point 9: a worker SIGKILLed while 7za packs its disaster-recovery archive. 7za
 * must die with it and the plain table copies (webhook secrets among them) must go at once,
 * and whatever plain copies a killed process left (here also one planted as a kill before 7za
 * started would leave it) are gone once the next worker has started. Real processes: the
 * worker (`npm run worker`), its 7za, and the kill. Linux only (7za is found through /proc).
 */

const PASSWORD = 'archive-kill password'

/** Enough event text (about 8 MB of random base64) that 7za packs for seconds. */
async function seedBulk(h: Harness): Promise<void> {
  const createdStamp = '2026-01-15T10:00:00.000Z' as Stamp
  for (let batch = 0; batch < 10; batch++) {
    const events = Array.from({ length: 40 }, () => ({ type: 'customer.updated', data: JSON.stringify({ blob: randomBytes(15_000).toString('base64') }), createdStamp }))
    await h.platform.context.store.transaction((store) => store.changes.append([], events))
  }
}

/** Live (not zombie) 7za processes packing into `dir`: their PIDs. */
function packers(dir: string): number[] {
  const found: number[] = []
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      const state = /\)\s+(\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1]
      if (argv[0] === path7za && argv[1] === 'a' && argv.some((a) => a.startsWith(dir)) && state !== 'Z') found.push(Number(pid))
    } catch {
      // gone meanwhile
    }
  }
  return found
}

const leftovers = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.work-') || n.endsWith('.partial'))
const plainCopies = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.work-'))

const fileTargets = process.platform === 'linux' ? activeTargets().filter((t): t is Exclude<TargetName, 'sqlite-memory'> => t !== 'sqlite-memory') : []
for (const target of fileTargets) {
  const test = suite(`crashes: a worker SIGKILLed while 7za packs its archive [${target}]`)
  test('7za dies with it, its plain copies go, and the next start leaves none', async () => {
    const h = await openHarness(target)
    const drDir = mkdtempSync(join(tmpdir(), 'archive-kill-dr-'))
    // A short lease and a frequent schedule: the next worker's archive job runs once the killed one's lease lapses.
    const env = { BILLING_DR_PASSWORD: PASSWORD, BILLING_DR_DIR: drDir, BILLING_LEASE_MS: '3000', BILLING_SCHEDULE_DR: '*/2 * * * * *' }
    let worker = startWorkerProcess(h.target, env)
    try {
      await seedBulk(h)
      // The worker writes an archive at start (none is current): wait for its 7za, then kill the worker.
      await until('7za packing the archive', () => packers(drDir).length > 0 || worker.process.exitCode !== null)
      const [sevenZip] = packers(drDir)
      assert.ok(sevenZip, `7za ran: ${worker.stderr()}`)
      const [work] = plainCopies(drDir)
      assert.ok(work, 'the plain table copies are in a work directory while 7za packs them')
      assert.is(statSync(join(drDir, work)).mode & 0o777, 0o700, 'a private work directory')
      const killedPid = worker.process.pid!
      worker.process.kill('SIGKILL')
      assert.is(await worker.exited, null, 'killed, not exited')

      await until('7za gone and the plain copies removed', () => packers(drDir).length === 0 && plainCopies(drDir).length === 0, 30_000).catch((e) => {
        throw new Error(`${(e as Error).message}: 7za ${packers(drDir)}, left ${readdirSync(drDir)}`)
      })
      assert.not.ok(existsSync(`/proc/${sevenZip}/cmdline`) && packers(drDir).includes(sevenZip), 'that 7za is gone')

      // What a kill before 7za started (during the export) leaves: plain copies and no 7za to guard them.
      const planted = `.work-${hostname().replace(/[^A-Za-z0-9.-]/g, '_')}.${killedPid}-killed`
      mkdirSync(join(drDir, planted), { mode: 0o700 })
      writeFileSync(join(drDir, planted, 'webhooks.csv'), 'id,url,secret\n1,https://example.com,whsec_plain\n', { mode: 0o600 })

      worker = startWorkerProcess(h.target, env)
      // At start-up, while the killed worker's lease still holds the archive job back.
      await until('no plain copies after the next start', () => plainCopies(drDir).length === 0, 30_000)
      await until('the next worker wrote its archive', () => readdirSync(drDir).some((n) => /^billing-dr-.*\.7z$/.test(n)))
      // The live worker may already be packing its next archive (every 2 s here): its own work is not a leftover.
      const own = `.${worker.process.pid}-`
      assert.equal(leftovers(drDir).filter((n) => !n.includes(own)), [], 'nor partial archives once its archive job ran')
      worker.process.kill('SIGTERM')
      assert.is(await worker.exited, 0, `the next worker stops cleanly: ${worker.stderr()}`)
    } finally {
      worker.process.kill('SIGKILL')
      await h.close()
      rmSync(drDir, { recursive: true, force: true })
    }
  })
  test.run()
}
