import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { KyselyJobLeases } from '../../adapters/persistence/repositories/kysely-job-leases.js'
import { Scheduler, type JobLogEntry } from '../../adapters/scheduler/scheduler.js'
import { openPlatform } from '../../apps/platform/platform.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`jobs: leases, scheduler, purge [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('a lease is exclusive until it expires or is released; a killed holder lapses', async ({ h }) => {
    let now = 1_000_000
    const { db, dialect } = h.platform.database
    const leases = new KyselyJobLeases(db, dialect, () => now)
    assert.ok(await leases.acquire('j', 'a', 1000))
    assert.not.ok(await leases.acquire('j', 'b', 1000))
    assert.not.ok(await leases.acquire('j', 'a', 1000), 'a holder does not take a lease it holds again')
    assert.ok(await leases.renew('j', 'a', 1000))
    assert.not.ok(await leases.renew('j', 'b', 1000))
    now += 1001 // a dies without releasing
    assert.ok(await leases.acquire('j', 'b', 1000))
    assert.not.ok(await leases.renew('j', 'a', 1000), 'the old holder has lost it')
    await leases.release('j', 'b')
    assert.ok(await leases.acquire('j', 'a', 1000))
    now += 1001 // b lapses; a takes it; b, late, releases what it no longer holds
    assert.ok(await leases.acquire('j', 'a', 1000))
    await leases.release('j', 'b')
    assert.not.ok(await leases.acquire('j', 'c', 1000), 'a release by a former holder leaves the lease held')
    const raced = await Promise.all(Array.from({ length: 10 }, (_, i) => leases.acquire('race', `w${i}`, 5000)))
    assert.is(raced.filter(Boolean).length, 1, 'exactly one of ten racing acquirers wins')
  })

  test('a job still running in this process is skipped, and only the run that took the lease releases it', async ({ h }) => {
    const { db, dialect } = h.platform.database
    const leases = new KyselyJobLeases(db, dialect)
    const gate = deferred()
    const firstStarted = deferred()
    let starts = 0
    const log: JobLogEntry[] = []
    // Only the first run waits for the gate, so a run let in wrongly ends instead of hanging the test.
    const blocking = async () => {
      starts += 1
      if (starts > 1) return
      firstStarted.resolve()
      await gate.promise
    }
    // Two jobs under one lease, as the billing poll and the billing catch-up are.
    const scheduler = new Scheduler({
      leases,
      onJobEnd: (e) => log.push(e),
      jobs: [
        { name: 'poll', lease: 'shared', schedule: '0 0 1 1 *', run: blocking },
        { name: 'catch-up', lease: 'shared', schedule: '0 0 1 1 *', run: async () => void (starts += 1) },
      ],
    })
    const first = scheduler.runNow('poll')
    await firstStarted.promise
    // Each of these ends (skipped) or, were it let in, starts: neither needs the first to end.
    await scheduler.runNow('poll')
    await scheduler.runNow('catch-up')
    assert.is(starts, 1, 'nothing else ran while the first held the lease')
    assert.equal(log.map((e) => [e.job, e.outcome]), [['poll', 'skipped'], ['catch-up', 'skipped']])
    assert.not.ok(await leases.acquire('shared', 'outsider', 60_000), 'the skipped runs left the lease with the first')
    gate.resolve()
    await first
    assert.equal(log.map((e) => e.outcome), ['skipped', 'skipped', 'done'])
    assert.ok(await leases.acquire('shared', 'outsider', 60_000), 'the first released it when it ended')
    await leases.release('shared', 'outsider')
    await scheduler.stop()
  })

  test('two schedulers racing for one job: it runs once at a time', async ({ h }) => {
    const { db, dialect } = h.platform.database
    let running = 0
    let maxRunning = 0
    let runs = 0
    const log: JobLogEntry[] = []
    const make = () =>
      new Scheduler({
        leases: new KyselyJobLeases(db, dialect),
        onJobEnd: (e) => log.push(e),
        jobs: [
          {
            name: 'exclusive',
            schedule: '0 0 1 1 *',
            run: async () => {
              running += 1
              runs += 1
              maxRunning = Math.max(maxRunning, running)
              await new Promise((r) => setTimeout(r, 50))
              running -= 1
            },
          },
        ],
      })
    const [a, b] = [make(), make()]
    await Promise.all([a.runNow('exclusive'), b.runNow('exclusive'), a.runNow('exclusive'), b.runNow('exclusive')])
    assert.is(maxRunning, 1)
    assert.ok(runs >= 1)
    assert.is(log.filter((e) => e.outcome === 'done').length, runs)
    assert.is(log.filter((e) => e.outcome === 'skipped').length, 4 - runs)
    await a.stop()
    await b.stop()
  })

  test('the purge job removes customers whose deletion date has come, and no others', async ({ h }) => {
    const due = (await h.request('POST', '/customers', { accountNumber: 'PURGE-DUE' })).body.id
    const number = (await h.request('POST', `/customers/${due}/numbers`, { number: '1' })).body.id
    const later = (await h.request('POST', '/customers', { accountNumber: 'PURGE-LATER' })).body.id
    await h.request('DELETE', `/customers/${due}`)
    h.clock.advanceMs(10 * 86_400_000)
    await h.request('DELETE', `/customers/${later}`)
    h.clock.advanceMs(25 * 86_400_000) // due: 35 days since its DELETE; later: 25
    const log: JobLogEntry[] = []
    const scheduler = h.platform.createScheduler({ onJobEnd: (e) => log.push(e) })
    await scheduler.runNow('purge-customers')
    assert.equal(log.map((e) => [e.outcome, e.result?.purged]), [['done', 1]])
    assert.is((await h.request('GET', `/customers/${due}`)).status, 404)
    assert.is((await h.request('GET', `/numbers/${number}`)).status, 404)
    assert.is((await h.request('GET', `/customers/${later}`)).status, 200)
    await scheduler.stop()
  })

  test.run()
}

if (activeTargets().includes('postgres')) {
  const test = suite('jobs: two platforms on one Postgres database')
  test('two processes sharing the database never run one job at once', async () => {
    const h = await openHarness('postgres')
    const other = await openPlatform({ databaseUrl: h.target.databaseUrl, schema: h.target.schema, skipMigrations: true })
    try {
      const order: string[] = []
      const job = (who: string) => ({
        name: 'shared',
        schedule: '0 0 1 1 *',
        run: async () => {
          order.push(`${who}+`)
          await new Promise((r) => setTimeout(r, 30))
          order.push(`${who}-`)
        },
      })
      const a = new Scheduler({ jobs: [job('a')], leases: new KyselyJobLeases(h.platform.database.db, h.platform.database.dialect) })
      const b = new Scheduler({ jobs: [job('b')], leases: new KyselyJobLeases(other.database.db, other.database.dialect) })
      await Promise.all([a.runNow('shared'), b.runNow('shared'), a.runNow('shared'), b.runNow('shared')])
      for (let i = 0; i < order.length; i += 2) assert.is(order[i].slice(0, 1), order[i + 1].slice(0, 1), order.join(' '))
    } finally {
      await other.close()
      await h.close()
    }
  })
  test.run()
}

{
  const test = suite('jobs: the disaster-recovery job')
  test('without a password it logs why no archive is written; with one it writes one at start', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const dir = mkdtempSync(join(tmpdir(), 'dr-job-'))
    const off = await openHarness('sqlite-memory')
    const on = await openHarness('sqlite-memory', { config: { drPassword: 'correct horse', drDir: dir } })
    try {
      const log: JobLogEntry[] = []
      const a = off.platform.createScheduler({ onJobEnd: (e) => log.push(e) })
      await a.runNow('disaster-recovery')
      assert.is(log[0].outcome, 'done')
      assert.match(String(log[0].result?.disabled), /BILLING_DR_PASSWORD/)
      const b = on.platform.createScheduler({ onJobEnd: (e) => log.push(e) })
      await b.runNow('disaster-recovery')
      assert.match(String(log[1].result?.written), /^billing-dr-.*\.7z$/)
      await b.runNow('disaster-recovery')
      assert.is(log[2].outcome, 'done')
      assert.is((await on.request('GET', '/disasterRecoveryFiles')).body.length, 2, 'the schedule writes the next one')
      await a.stop()
      await b.stop()
    } finally {
      await off.close()
      await on.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
  test.run()
}
