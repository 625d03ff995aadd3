import { Cron } from 'croner'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cronOptions, Scheduler } from '../../adapters/scheduler/scheduler.js'

const test = suite('scheduler: patterns are UTC')
const from = new Date('2026-06-01T12:00:00Z')
const never = { acquire: async () => false, renew: async () => false, release: async () => {} }
// A process whose local time is not UTC (British Summer Time on the dates below: UTC+1); the test
// processes run other files after this one, so its TZ is given back.
const tz = process.env.TZ
test.before(() => {
  process.env.TZ = 'Europe/London'
})
test.after(() => {
  if (tz === undefined) delete process.env.TZ
  else process.env.TZ = tz
})

test('00:30 daily runs at 00:30Z on the UTC date the Clock dates it, whatever the process TZ', async () => {
  assert.is(new Date('2026-06-01T12:00:00Z').getHours(), 13, 'the process is on London summer time')
  assert.is(new Cron('30 0 * * *', { paused: true }).nextRun(from)!.toISOString(), '2026-06-01T23:30:00.000Z', 'croner alone reads local time')
  assert.is(new Cron('30 0 * * *', { ...cronOptions, paused: true }).nextRun(from)!.toISOString(), '2026-06-02T00:30:00.000Z')
  // The crons a started scheduler made.
  const scheduler = new Scheduler({ jobs: [{ name: 'dunning', schedule: '30 0 * * *', run: async () => {} }], leases: never })
  scheduler.start()
  try {
    const crons = (scheduler as unknown as { crons: Cron[] }).crons
    assert.equal(crons.map((c) => c.nextRun(from)!.toISOString()), ['2026-06-02T00:30:00.000Z'])
  } finally {
    await scheduler.stop()
  }
})

test.run()
