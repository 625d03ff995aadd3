import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { seedCrashCustomers } from '../support/crash-seed.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { childEntry } from '../support/child-entry.js'

/**
 * Several workers bill one run (Postgres): real worker processes (`apps/worker/main.ts`, as
 * `npm run worker` runs it) claim the run's partitions, and the ledger and invoices they leave
 * are those of one worker billing the same data alone. Killing a worker mid-partition (twice)
 * leaves its partition to be claimed again after its lease: the same ledger again, nothing
 * charged twice. SQLite keeps one worker a run (one partition), which worker-kill.test.ts covers.
 */

/**
 * Two partitions a worker: each claims one at the same tick and then another (or waits for the
 * others'), and the kills find three partitions under way. Ten partitions proved nothing more
 * and cost two thirds more seeding (three databases of them) and billing.
 */
const PARTITIONS = 6
const CUSTOMERS = 15 * PARTITIONS
const LEASE_MS = 1_000
/** Fifteen customers of three features a partition (a customer weighs its features and one): 5 steps each. */
const PARTITION_FEATURES = 60

/** Customers with a few features each, identical on every harness (the IDs match too). */
async function seed(h: Harness): Promise<void> {
  await seedCrashCustomers(h, CUSTOMERS, 'P')
}

/** Contract 14.1: the run's invoice numbers are 1..N, whichever worker raised which, killed ones' rolled back steps included. */
async function assertGaplessNumbers(h: Harness) {
  const invoices = await h.platform.context.store.repository('invoices').list({ where: [], limit: 100_000 })
  const seqs = invoices.map((i) => Number(/^INV-(\d{6})$/.exec(i.invoiceNumber ?? '')?.[1])).sort((a, b) => a - b)
  assert.equal(seqs, Array.from({ length: CUSTOMERS }, (_, i) => i + 1), 'invoice numbers 1..N, no gap, no repeat')
}

const requestRun = async (h: Harness) => {
  const run = await h.request('POST', '/billingRuns', { cutoffDate: '2026-06-30', invoiceDate: '2026-06-30', status: 'Requested' })
  assert.is(run.status, 201)
  return String(run.body.id)
}

/** The ledger and invoices without volatile stamps and IDs, for comparing two databases. */
async function outcome(h: Harness) {
  const tx = (await h.platform.context.store.repository('transactions').list({ where: [], limit: 100_000 })).map((t) =>
    [t.customerID, t.featureID, t.transactionType, t.dateFrom, t.dateTo, String(t.amount), String(t.VATAmount), t.approved].join('|'),
  )
  const inv = (await h.platform.context.store.repository('invoices').list({ where: [], limit: 100_000 })).map((i) => [i.customerID, String(i.netAmount), String(i.VATAmount)].join('|'))
  return { tx: tx.sort(), inv: inv.sort() }
}

/** DATABASE_URL for a child process: the Postgres schema rides in the URL's search_path. */
function childUrl(h: Harness): string {
  const url = h.target.databaseUrl
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${h.target.schema}`)}`
}

interface Worker {
  readonly process: ChildProcess
  readonly exited: Promise<number | null>
  /** Customers this worker's executions billed, from its `billing-run-ended` log lines. */
  billed(): number
  /** Its billing poll has run at least once (the one at start): the next is on the second. */
  polled(): boolean
}

function startWorker(h: Harness, drDir: string): Worker {
  const child = spawn(process.execPath, [...childEntry('apps/worker/main.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: childUrl(h),
      BILLING_LEASE_MS: String(LEASE_MS),
      BILLING_DR_DIR: drDir,
      // Debug: a poll that finds no run logs its end only there.
      LOG_LEVEL: 'debug',
      BILLING_BATCH_SIZE: '1',
      BILLING_PARTITION_FEATURES: String(PARTITION_FEATURES),
      BILLING_SCHEDULE_BILLING_POLL: '* * * * * *',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  child.stderr!.on('data', (c) => (log += c))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const lines = () => log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; customers?: number; job?: string })
  return {
    process: child,
    exited,
    billed: () => lines().filter((l) => l.msg === 'billing-run-ended').reduce((n, l) => n + (l.customers ?? 0), 0),
    polled: () => lines().some((l) => l.msg === 'job' && l.job === 'billing-poll'),
  }
}

const until = async (what: string, done: () => boolean | Promise<boolean>, ms = 120_000) => {
  const end = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const stopAll = async (workers: readonly Worker[]) => {
  for (const w of workers) if (w.process.exitCode === null && w.process.signalCode === null) w.process.kill('SIGTERM')
  return Promise.all(workers.map((w) => w.exited))
}

for (const target of activeTargets().filter((t) => t === 'postgres')) {
  const test = suite<{ reference: Harness; expected: Awaited<ReturnType<typeof outcome>>; drDir: string }>(`parallel workers: one run billed by three worker processes [${target}]`)
  test.before(async (ctx) => {
    ctx.drDir = mkdtempSync(join(tmpdir(), 'parallel-workers-dr-'))
    ctx.reference = await openHarness(target, { now: '2026-06-30T12:00:00Z' })
    await seed(ctx.reference)
    await requestRun(ctx.reference)
    const scheduler = ctx.reference.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    ctx.expected = await outcome(ctx.reference)
    assert.ok(ctx.expected.tx.length > CUSTOMERS * 3, `reference ledger has ${ctx.expected.tx.length} rows`)
    assert.is(ctx.expected.inv.length, CUSTOMERS)
  })
  test.after(async (ctx) => {
    await ctx.reference.close()
    rmSync(ctx.drDir, { recursive: true, force: true })
  })

  /**
   * Seeds `h`, starts three workers into `workers` and requests the run once each has polled at
   * start: their polls are on the second from then, so all three look for the run at the same
   * tick. (A worker whose poll at start came after the request found the run alone, and billed
   * all of it before the others' next poll.) Those that find another splitting it wait for its
   * partitions.
   */
  const runOnThreeWorkers = async (h: Harness, drDir: string, workers: Worker[]): Promise<string> => {
    await seed(h)
    for (let i = 0; i < 3; i++) workers.push(startWorker(h, drDir))
    await until('three workers polled', () => workers.every((w) => w.polled()))
    return requestRun(h)
  }
  const partitions = (h: Harness) => h.platform.database.db.selectFrom('billing_run_partitions').selectAll().execute()
  const run = async (h: Harness, id: string) => (await h.request('GET', `/billingRuns/${id}`)).body

  test('three workers share the partitions; the ledger is the one-worker ledger', async ({ expected, drDir }) => {
    const h = await openHarness(target, { now: '2026-06-30T12:00:00Z' })
    const workers: Worker[] = []
    try {
      const id = await runOnThreeWorkers(h, drDir, workers)
      await until('the run complete', async () => (await run(h, id)).status === 'Complete')
      const done = await run(h, id)
      assert.equal([done.customersTotal, done.customersDone, done.invoiceCount], [CUSTOMERS, CUSTOMERS, CUSTOMERS])
      const parts = await partitions(h)
      assert.is(parts.length, PARTITIONS)
      assert.ok(parts.every((p) => p.status === 'Done'))
      assert.is(parts.reduce((n, p) => n + Number(p.customersDone), 0), CUSTOMERS, 'each customer billed once')
      await until('every worker logged its share', () => workers.reduce((n, w) => n + w.billed(), 0) === CUSTOMERS)
      // A worker that finds another splitting the run waits for its partitions, but may still
      // find them all claimed: so not every worker need bill, but one worker alone billing the
      // run would mean partitions were not shared.
      const shares = workers.map((w) => w.billed())
      assert.ok(shares.filter((n) => n > 0).length >= 2, `more than one worker billed customers: ${shares}`)
      const got = await outcome(h)
      assert.equal(got.tx, expected.tx)
      assert.equal(got.inv, expected.inv)
      await assertGaplessNumbers(h)
      console.log(`  [parallel ${target}] ${parts.length} partitions; customers billed by each worker: ${shares.join(', ')}; ${got.tx.length} ledger rows identical`)
    } finally {
      await stopAll(workers)
      await h.close()
    }
  })

  test('a worker SIGKILLed mid-partition twice: its partition is claimed again after the lease; the same ledger', async ({ expected, drDir }) => {
    const h = await openHarness(target, { now: '2026-06-30T12:00:00Z' })
    const workers: Worker[] = []
    try {
      const id = await runOnThreeWorkers(h, drDir, workers)
      const left: string[] = []
      for (let k = 0; k < 2; k++) {
        // A worker mid-partition: some of it committed, two steps (of three customers) or more to go.
        let victim: Worker | undefined
        await until(`a worker mid-partition (kill ${k + 1})`, async () => {
          const mid = (await partitions(h)).filter((p) => p.status === 'Open' && p.holder && Number(p.customersDone) > 0 && Number(p.customersDone) <= Number(p.customersTotal) - 6)
          victim = workers.find((w) => w.process.exitCode === null && w.process.signalCode === null && mid.some((p) => String(p.holder).includes(`:${w.process.pid}:`)))
          return victim !== undefined
        })
        victim!.process.kill('SIGKILL')
        assert.is(await victim!.exited, null, 'killed, not exited')
        assert.is((await run(h, id)).status, 'Running', 'killed while the run was going')
        // The dead worker's partition keeps its lease (its holder names the process) until it lapses.
        const held = (await partitions(h)).filter((p) => p.status === 'Open' && String(p.holder).includes(`:${victim!.process.pid}:`))
        assert.is(held.length, 1, 'the killed worker held a partition mid-way')
        left.push(String(held[0].id))
        workers.push(startWorker(h, drDir))
      }
      await until('the run complete', async () => (await run(h, id)).status === 'Complete')
      const parts = await partitions(h)
      for (const p of left) assert.is(parts.find((x) => String(x.id) === p)?.status, 'Done', `partition ${p} finished by another worker`)
      assert.is(parts.reduce((n, p) => n + Number(p.customersDone), 0), CUSTOMERS, 'each customer billed once')
      assert.equal((await run(h, id)).invoiceCount, CUSTOMERS)
      const got = await outcome(h)
      assert.equal(got.tx, expected.tx)
      assert.equal(got.inv, expected.inv)
      await assertGaplessNumbers(h)
      console.log(`  [parallel kills ${target}] partitions ${left.join(' and ')} left by killed workers, finished by others; ${got.tx.length} ledger rows identical`)
    } finally {
      await stopAll(workers)
      await h.close()
    }
  })

  test.run()
}
