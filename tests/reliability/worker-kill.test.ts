import { spawn } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { seedCrashCustomers } from '../support/crash-seed.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets, type TargetName } from '../support/targets.js'
import { childEntry } from '../support/child-entry.js'

// Each kill costs a lease and the billing its successor redoes; the successor's start overlaps
// the killed worker's work (below). Nearly every kill lands mid-run (20 of 20, then 12 of 12, on
// both databases), each at a random point of a one-customer batch: eight reach the steps of a
// batch (its writes, its commit, the lease's renewal) as twelve and twenty did, in half a minute
// less of the suite (69.8 s for twelve on both, 2026-11-30).
const KILLS = 8
const CUSTOMERS = 120

/** Customers with a few features each, identical on every harness (the IDs match too). */
async function seed(h: Harness) {
  await seedCrashCustomers(h, CUSTOMERS, 'K')
  const run = await h.request('POST', '/billingRuns', { cutoffDate: '2026-06-30', invoiceDate: '2026-06-30', status: 'Requested' })
  assert.is(run.status, 201)
}

/** The ledger and invoices without volatile stamps, for comparing two databases. */
async function outcome(h: Harness) {
  const tx = (await h.platform.context.store.repository('transactions').list({ where: [], limit: 100_000 })).map((t) =>
    [t.customerID, t.featureID, t.transactionType, t.dateFrom, t.dateTo, String(t.amount), String(t.VATAmount), t.approved].join('|'),
  )
  const inv = (await h.platform.context.store.repository('invoices').list({ where: [], limit: 100_000 })).map((i) =>
    [i.customerID, String(i.netAmount), String(i.VATAmount)].join('|'),
  )
  return { tx: tx.sort(), inv: inv.sort() }
}

/** A worker process and its exit code, listened for from its start (it may end before it is waited for). */
function child(h: Harness) {
  const p = spawn(process.execPath, [...childEntry('tests/support/billing-child.ts')], {
    env: { ...process.env, DATABASE_URL: h.target.databaseUrl, TEST_SCHEMA: h.target.schema ?? '', BILLING_LEASE_MS: '800', BILLING_BATCH_SIZE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => p.on('exit', (code) => resolve(code)))
  // Its platform open (the child writes "ready"), or its end: before that it cannot bill.
  const ready = new Promise<void>((resolve) => {
    let out = ''
    p.stdout!.on('data', (c) => {
      out += c
      if (out.includes('ready\n')) resolve()
    })
    void exited.then(() => resolve())
  })
  return { p, exited, ready }
}

const fileTargets = activeTargets().filter((t): t is Exclude<TargetName, 'sqlite-memory'> => t !== 'sqlite-memory')
for (const target of fileTargets) {
  const test = suite(`crashes: a worker SIGKILLed ${KILLS} times during a billing run [${target}]`)
  test('the ledger after the crashes and a final run is identical to an uninterrupted run', async () => {
    const reference = await openHarness(target, { now: '2026-06-30T12:00:00Z' })
    const crashed = await openHarness(target, { now: '2026-06-30T12:00:00Z' })
    try {
      await seed(reference)
      await seed(crashed)
      const scheduler = reference.platform.createScheduler({ onJobEnd: () => {} })
      await scheduler.runNow('billing-poll')
      await scheduler.stop()
      let killedMidRun = 0
      const progress = async () => (await crashed.platform.context.store.repository('billingRuns').get('1'))!.customersDone
      let current = child(crashed)
      for (let i = 0; i < KILLS; i++) {
        const { p, exited, ready } = current
        const before = await progress()
        // Wait until this worker has billed at least one batch, then kill it at a random point.
        // A batch of one customer takes a few milliseconds, so the poll is tight: a slow poll lets
        // the worker finish the run before most of the kills. It begins once the worker has
        // opened its platform: polling through its start (seconds) cost more CPU than the kills.
        await ready
        for (let t = 0; t < 2000 && (await progress()) === before && p.exitCode === null; t++) await new Promise((r) => setTimeout(r, 5))
        // The next worker starts while this one bills: its start (about a second) is spent before
        // the kill, not after it. It waits for the run's lease like any worker finding one held.
        current = child(crashed)
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 8)))
        if (p.exitCode === null) {
          p.kill('SIGKILL')
          if ((await progress()) !== before) killedMidRun++
        }
        // The next worker waits out the dead holder's lease itself: it polls while the run is open.
        await exited
      }
      assert.is(await current.exited, 0)
      assert.ok(killedMidRun >= 4, `only ${killedMidRun} kills landed mid-run`)
      const run = (await crashed.request('GET', '/billingRuns/1')).body
      assert.is(run.status, 'Complete', JSON.stringify(run))
      const [a, b] = [await outcome(reference), await outcome(crashed)]
      assert.ok(a.tx.length > CUSTOMERS * 3, `reference ledger has ${a.tx.length} rows`)
      assert.equal(b.tx, a.tx)
      assert.equal(b.inv, a.inv)
      console.log(`  [crashes ${target}] ${killedMidRun} of ${KILLS} kills landed while the worker was running; ${a.tx.length} ledger rows identical`)
    } finally {
      await reference.close()
      await crashed.close()
    }
  })
  test.run()
}
