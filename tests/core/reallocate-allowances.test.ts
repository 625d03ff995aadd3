import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Stamp } from '../../core/dates/stamp.js'
import type { Money } from '../../core/money/money.js'
import type { AllowanceCall, AllowanceUpdate, RatingData } from '../../core/ports/rating-data.js'
import type { AllowanceHolder } from '../../core/rating/allowances.js'
import { reallocateAllowances } from '../../core/rating/reallocate-allowances.js'
import { TouchedMonths, type RatingShared } from '../../core/rating/rating-context.js'
import type { RatingTariff } from '../../core/rating/rating-tariff.js'

const test = suite('core/rating reallocateAllowances')

// 1p a second, no connection charge: a call's price in pence is its seconds beyond the allowance.
const tariff: RatingTariff = { id: 't', name: 'T', baseType: 'Per Second', details: [{ chargeBand: 'MOB', timeBand: 'any', cost: 0.01, costConnection: 0 }] }
const shared: RatingShared = {
  tariffs: new Map([['T', tariff]]),
  tariffsById: new Map([['t', tariff]]),
  ignored: new Map(),
  plans: { OneMinute: { callClasses: ['mobile'], chargeBands: null, allowanceMinutes: 1, period: 'Monthly' } },
}
const NOW = '2026-03-01T00:00:00.000Z' as Stamp

/** Two calls of 40 s for each customer in each month, stored later call first and each priced as wholly covered. */
function callsOf(customer: string, month: string): AllowanceCall[] {
  const call = (n: number): AllowanceCall => ({
    id: `${customer}-${month}-${n}`,
    customerID: customer,
    numberID: `n${customer}`,
    tariffID: 't',
    startTime: `${month}-0${n}T10:00:00Z` as Stamp,
    fingerprint: `${customer}${month}${n}`,
    durationSeconds: 40,
    bytes: null,
    events: null,
    callType: 'mobile',
    chargeBand: 'MOB',
    origination: 'fixed',
    recorded: false,
    cost: 0n as Money,
    ratedDuration: 40,
    allowanceSeconds: 40,
    billed: false,
  })
  return [call(2), call(1)]
}

/** The rating data reallocation uses, in memory, recording the order of its reads. */
function memoryData(customers: string[], months: string[]) {
  const reads: string[] = []
  const updates: AllowanceUpdate[] = []
  const data: Pick<RatingData, 'allowanceHolders' | 'allowanceCalls' | 'updateAllowances'> = {
    async allowanceHolders(ids) {
      return ids.map((c): AllowanceHolder => ({ kind: 'number', id: `n${c}`, customerID: c, numberID: `n${c}`, poolName: null, plans: ['OneMinute', null, null, null], multipliers: [], featureCount: null }))
    },
    async allowanceCalls(ids, from) {
      reads.push(`${from.slice(0, 7)} ${ids[0]}…${ids.at(-1)} (${ids.length})`)
      await new Promise((r) => setTimeout(r, 1))
      return months.filter((m) => from.startsWith(m)).flatMap((m) => ids.filter((c) => customers.includes(c)).flatMap((c) => callsOf(c, m)))
    },
    async updateAllowances(list) {
      updates.push(...list)
    },
  }
  return { data: data as RatingData, reads, updates }
}

test('every customer and month is allocated once, chunk by chunk, in start order: the second call of each month pays for its part beyond the minute', async () => {
  const customers = Array.from({ length: 1_100 }, (_, i) => `c${String(i).padStart(4, '0')}`)
  const months = ['2026-01', '2026-02']
  const touched = new TouchedMonths()
  for (const m of months) for (const c of customers) touched.add(c, `${m}-15T00:00:00Z` as Stamp)
  const { data, reads, updates } = memoryData(customers, months)
  const changed = await reallocateAllowances(data, shared, touched, NOW)
  // 500 customers a chunk: three chunks a month, months in order.
  assert.equal(reads, ['2026-01 c0000…c0499 (500)', '2026-01 c0500…c0999 (500)', '2026-01 c1000…c1099 (100)', '2026-02 c0000…c0499 (500)', '2026-02 c0500…c0999 (500)', '2026-02 c1000…c1099 (100)'])
  assert.is(changed, 2 * 1_100)
  assert.is(updates.length, 2 * 1_100)
  // The earlier call (the 1st) keeps its 40 s; the later one has 20 s of the minute left and pays 20p (2,000 ten-thousandths of a pound).
  assert.ok(updates.every((u) => u.id.endsWith('-2')))
  assert.ok(updates.every((u) => u.allowanceSeconds === 20 && u.cost === 2_000n))
})

test('a failed write fails the reallocation, and the next chunk\'s read under way beside it, failing too, is not left unhandled', async () => {
  const customers = Array.from({ length: 600 }, (_, i) => `c${String(i).padStart(4, '0')}`)
  const touched = new TouchedMonths()
  for (const c of customers) touched.add(c, '2026-01-15T00:00:00Z' as Stamp)
  const { data } = memoryData(customers, ['2026-01'])
  let reads = 0
  const failing = {
    ...data,
    allowanceHolders: data.allowanceHolders,
    async allowanceCalls(ids: readonly string[], from: Stamp, to: Stamp) {
      if (++reads === 2) {
        await new Promise((r) => setTimeout(r, 20))
        throw new Error('read failed')
      }
      return data.allowanceCalls(ids, from, to)
    },
    updateAllowances: async () => {
      throw new Error('write failed')
    },
  } as RatingData
  await reallocateAllowances(failing, shared, touched, NOW).then(
    () => assert.unreachable('resolved'),
    (e: Error) => assert.is(e.message, 'write failed'),
  )
  // The second read fails after the first chunk's write: an unhandled rejection would end the run here.
  await new Promise((r) => setTimeout(r, 40))
  assert.is(reads, 2)
})

test.run()
