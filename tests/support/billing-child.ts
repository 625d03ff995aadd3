// A worker process for crash tests: runs the billing job until no run is left, then exits 0.
import { openPlatform } from '../../apps/platform/platform.js'

const platform = await openPlatform({ databaseUrl: process.env.DATABASE_URL!, schema: process.env.TEST_SCHEMA || undefined, skipMigrations: true })
// Loading and opening the platform is most of a start (seconds on a busy machine): the test polls
// the run's progress tightly only from this line on.
process.stdout.write('ready\n')
const scheduler = platform.createScheduler({ leaseMs: Number(process.env.BILLING_LEASE_MS ?? 1000), onJobEnd: (e) => process.stdout.write(`${JSON.stringify(e)}\n`) })
for (;;) {
  await scheduler.runNow('billing-poll')
  const open = await platform.context.store.repository('billingRuns').list({ where: [{ op: 'in', column: 'status', values: ['Requested', 'Running'] }], limit: 1 })
  if (open.length === 0) break
  await new Promise((r) => setTimeout(r, 200))
}
await scheduler.stop()
await platform.close()
process.exit(0)
