import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { callClassKeys } from '../../core/fields/call-classes.js'
import type { DateOnly } from '../../core/dates/date-only.js'
import type { Stamp } from '../../core/dates/stamp.js'
import { parseMoney } from '../../core/money/money.js'
import { defaultPresets, mergePresets } from '../../core/presets/presets.js'
import { planCallClasses, type DiscountPlan } from '../../core/presets/discount-plans.js'
import { allocateMonth, allowanceMs, customerAllowances, mayUseAllowance, type AllowanceHolder, type MonthCall } from '../../core/rating/allowances.js'
import { findRate } from '../../core/rating/find-rate.js'
import { rateCall } from '../../core/rating/rate-call.js'
import { startOrder } from '../../core/rating/reallocate-allowances.js'
import type { RatingTariff } from '../../core/rating/rating-tariff.js'

const test = suite('core/rating allowances')

const plan = (minutes: number, callClasses: string[] = ['mobile'], chargeBands: string[] | null = null): DiscountPlan => ({ callClasses, chargeBands, allowanceMinutes: minutes, period: 'Monthly' })
const plans = { Five: plan(5), Two: plan(2), UKOnly: plan(10, ['national'], ['UK']), None: plan(0, []) }
const number = (id: string, p: (string | null)[], poolName: string | null = null): AllowanceHolder => ({ kind: 'number', id, customerID: 'c', numberID: id, poolName, plans: p, multipliers: [], featureCount: null })
const feature = (id: string, numberID: string | null, p: (string | null)[], o: Partial<AllowanceHolder> = {}): AllowanceHolder => ({ kind: 'feature', id, customerID: 'c', numberID, poolName: null, plans: p, multipliers: [], featureCount: null, ...o })
const call = (numberID: string, ratedSeconds: number, o: Partial<MonthCall> = {}): MonthCall => ({ numberID, date: '2026-01-14' as DateOnly, callType: 'mobile', chargeBand: 'MOB', ratedMs: BigInt(ratedSeconds * 1000), billed: false, usedMs: 0n, ...o })
const seconds = (ms: bigint[]) => ms.map((m) => Number(m) / 1000)

test('presets: the shipped plans have entries; a bad entry stops start-up naming it; the classes are the rater’s', () => {
  assert.equal(Object.keys(defaultPresets.discountPlans).sort(), [...defaultPresets.lists.discountPlans].sort())
  assert.equal(defaultPresets.discountPlans['Mobile Bundle 500'], { callClasses: ['mobile'], chargeBands: null, allowanceMinutes: 500, period: 'Monthly' })
  assert.equal([...planCallClasses], [...callClassKeys])
  assert.throws(() => mergePresets({ discountPlans: { None: { callClasses: [], allowanceMinutes: 0, period: 'Monthly' }, Silly: { callClasses: ['mobiles'], allowanceMinutes: 5, period: 'Monthly' } } }), /discountPlans\.Silly\.callClasses\.0: a call class/)
  assert.throws(() => mergePresets({ discountPlans: { Odd: { callClasses: ['mobile'], allowanceMinutes: -1, period: 'Monthly' } } }), /discountPlans\.Odd\.allowanceMinutes: at least 0/)
  assert.throws(() => mergePresets({ discountPlans: { Weekly: { callClasses: ['mobile'], allowanceMinutes: 1, period: 'Weekly' } } }), /discountPlans\.Weekly\.period/)
  assert.throws(() => mergePresets({ discountPlans: { Extra: { callClasses: ['mobile'], allowanceMinutes: 1, period: 'Monthly', free: true } } }), /discountPlans\.Extra/)
  assert.throws(() => mergePresets({ extend: { discountPlans: ['Gold'] } }), /discountPlans names "Gold" but the discountPlans map has no entry/)
  // A map given without its list is the list.
  const own = mergePresets({ discountPlans: { Basic: { callClasses: ['national'], chargeBands: ['UK'], allowanceMinutes: 100.5, period: 'Monthly' } } })
  assert.equal(own.lists.discountPlans, ['Basic'])
  assert.equal(own.discountPlans.Basic.chargeBands, ['UK'])
})

test("the README's discountPlans example is a valid presets file", () => {
  const block = /`discountPlans` gives each name[\s\S]*?```json\n([\s\S]*?)\n```/.exec(readFileSync('README.md', 'utf8'))
  assert.ok(block, 'the README shows the map')
  const p = mergePresets(JSON.parse(block[1]))
  assert.equal(p.lists.discountPlans, ['None', '1000 UK Minutes', 'UK Landlines 300'])
  assert.equal(p.discountPlans['UK Landlines 300'].chargeBands, ['UK', 'LOCAL'])
})

test('allowance: minutes × multiplier (1 when unset) × featureCount (1 when unset), to the millisecond', () => {
  assert.is(allowanceMs(plan(5), null, null), 300_000n)
  assert.is(allowanceMs(plan(5), 0.2, 2), 120_000n)
  assert.is(allowanceMs(plan(1.5), 3, null), 270_000n)
  assert.is(allowanceMs(plan(5), null, 0), 0n)
})

test('a call crossing the allowance uses what is left; later calls none; other classes and bands none', () => {
  const pools = customerAllowances([number('a', ['Five', 'UKOnly'])], plans)
  const calls = [call('a', 120), call('a', 240), call('a', 60), call('a', 60, { callType: 'national', chargeBand: 'UK' }), call('a', 60, { callType: 'national', chargeBand: 'INT' })]
  assert.equal(seconds(allocateMonth(calls, pools)), [120, 180, 0, 60, 0])
})

test('pools: holders naming one pool share it; a customer feature without a pool covers every number, after their own', () => {
  const pools = customerAllowances(
    [
      number('a', ['Five'], 'Office'),
      number('b', [], 'Office'),
      feature('f', 'b', ['Five'], { multipliers: [0.2], featureCount: 2, poolName: 'Office' }),
      number('c', ['Two']),
      feature('g', null, ['Two']),
    ],
    plans,
  )
  // Office: 300 + 120 = 420 s for a and b; c: its own 120 s; g: 120 s for every number, used
  // after a number's own pools: a 240 (Office), b 180 (Office) + 60 (g), c 120 (own) + 60 (g).
  const calls = [call('a', 240), call('b', 240), call('c', 180), call('d', 60), call('a', 60)]
  assert.equal(seconds(allocateMonth(calls, pools)), [240, 240, 180, 0, 0])
  // d (no plan, no pool) draws only from the customer's feature: after c took it, nothing.
  assert.equal(seconds(allocateMonth([call('d', 60), call('c', 180)], pools)), [60, 180])
})

test("a dropped holder's plans cover calls up to its through date only; within a pool what ends soonest goes first", () => {
  const on = (date: string) => ({ date: date as DateOnly })
  // Office's Five: a's 300 s for good, b's 120 s (its feature's, dropped) through the 11th.
  const pools = customerAllowances([number('a', ['Five'], 'Office'), feature('f', 'b', ['Five'], { poolName: 'Office', multipliers: [0.4], through: '2026-01-11' as DateOnly })], plans)
  // b's 120 s go first, so a's last for later: 120 + 60 of a's, then a's 240 left for the 12th.
  const calls = [call('a', 180, on('2026-01-10')), call('b', 300, on('2026-01-12')), call('a', 60, on('2026-01-13'))]
  assert.equal(seconds(allocateMonth(calls, pools)), [180, 240, 0])
  // A holder dropped alone covers nothing after its day: not even a call that may use it.
  const alone = customerAllowances([feature('g', 'c', ['Five'], { through: '2026-01-11' as DateOnly })], plans)
  assert.equal(seconds(allocateMonth([call('c', 60, on('2026-01-11')), call('c', 60, on('2026-01-12'))], alone)), [60, 0])
  assert.is(mayUseAllowance(alone, 'c', 'mobile', 'MOB', '2026-01-12' as DateOnly), false)
  assert.is(mayUseAllowance(alone, 'c', 'mobile', 'MOB', '2026-01-11' as DateOnly), true)
})

test("a holder's plans cover calls from its from date only; the month it starts in gives its whole allowance", () => {
  const on = (date: string) => ({ date: date as DateOnly })
  const later = customerAllowances([feature('f', 'a', ['Five'], { from: '2026-01-11' as DateOnly })], plans)
  assert.is(mayUseAllowance(later, 'a', 'mobile', 'MOB', '2026-01-10' as DateOnly), false)
  assert.is(mayUseAllowance(later, 'a', 'mobile', 'MOB', '2026-01-11' as DateOnly), true)
  assert.equal(seconds(allocateMonth([call('a', 60, on('2026-01-10')), call('a', 240, on('2026-01-11')), call('a', 120, on('2026-01-20'))], later)), [0, 240, 60])
  // In one pool: the starting feature's 120 s serve no call before its day, a's 300 s do.
  const pool = customerAllowances([number('a', ['Five'], 'P'), feature('g', 'b', ['Five'], { poolName: 'P', multipliers: [0.4], from: '2026-01-11' as DateOnly })], plans)
  assert.equal(seconds(allocateMonth([call('b', 360, on('2026-01-05')), call('b', 120, on('2026-01-12'))], pool)), [300, 120])
})

test('a billed call keeps its share before the others are allocated in start order', () => {
  const pools = customerAllowances([number('a', ['Five'])], plans)
  assert.equal(seconds(allocateMonth([call('a', 240), call('a', 120, { billed: true, usedMs: 120_000n })], pools)), [180, 120])
})

const tariff: RatingTariff = {
  id: 't',
  name: 'T',
  baseRoundSeconds: 60,
  details: [{ chargeBand: 'MOB', timeBand: 'any', cost: 0.1, costConnection: 0.02, costMin: 0.05 }],
} as unknown as RatingTariff

test('property: charged seconds + allowance used = rated seconds; the price is the connection plus the charged seconds', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 7200_000 }).map((ms) => ms / 1000), fc.integer({ min: 0, max: 7200 }), (duration, allowanceSeconds) => {
      const record = { chargeBand: 'MOB', startTime: '2026-01-14T10:00:00.000Z' } as never
      const found = findRate(tariff, record)!
      const usage = { durationSeconds: duration, bytes: null, events: null, origination: 'fixed', recorded: false } as const
      const full = rateCall(tariff, found.rate, usage)
      if ('unbilledReason' in full) throw new Error('unrated')
      const rated = BigInt(Math.round(full.ratedDuration * 1000))
      const [used] = allocateMonth([call('a', 0, { ratedMs: rated })], customerAllowances([number('a', ['X'])], { X: plan(allowanceSeconds / 60) }))
      const priced = rateCall(tariff, found.rate, usage, used)
      if ('unbilledReason' in priced) throw new Error('unrated')
      const charged = rated - used
      assert.ok(used >= 0n && charged >= 0n)
      assert.is(Number(charged + used), Math.round(priced.ratedDuration * 1000))
      // 0.02 + 0.10 per minute charged: exact in ten-thousandths (0.10 / 60 000 ms).
      const expected = 200n + (1000n * charged + 30_000n) / 60_000n
      // The 0.05 minimum only for a call no allowance covered.
      assert.is(priced.cost, used > 0n || expected >= 500n ? expected : 500n)
      assert.ok(priced.cost <= full.cost)
      if (used === 0n) assert.is(priced.cost, full.cost)
    }),
  )
})

test('property: calls starting together are ordered by fingerprint, so any arrival order allocates alike', () => {
  // Fingerprints are unique (a unique index keeps them so).
  const arbitrary = fc.uniqueArray(
    fc.record({ second: fc.integer({ min: 0, max: 3 }), fingerprint: fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16).padStart(4, '0')), on: fc.constantFrom('a', 'b'), rated: fc.integer({ min: 1, max: 400 }) }),
    { minLength: 1, maxLength: 15, selector: (c) => c.fingerprint },
  )
  fc.assert(
    fc.property(arbitrary.chain((calls) => fc.tuple(fc.constant(calls), fc.shuffledSubarray(calls, { minLength: calls.length, maxLength: calls.length }))), ([calls, arrived]) => {
      const pools = customerAllowances([number('a', ['Five'], 'P'), number('b', ['Two'], 'P')], plans)
      const allocate = (list: typeof calls) => {
        const withIDs = list.map((c) => ({ ...c, startTime: `2026-01-14T10:00:0${c.second}.000Z` as Stamp, id: c.fingerprint }))
        const ordered = [...withIDs].sort(startOrder)
        const used = allocateMonth(ordered.map((c) => call(c.on, c.rated)), pools)
        return new Map(ordered.map((c, i) => [c.id, used[i]]))
      }
      const before = allocate(calls)
      const after = allocate(arrived)
      for (const [id, used] of before) assert.is(after.get(id), used, id)
    }),
  )
})

test('pricing: an allowance that covers a call leaves its connection charge, not the minimum', () => {
  const found = findRate(tariff, { chargeBand: 'MOB', startTime: '2026-01-14T10:00:00.000Z' } as never)!
  const usage = { durationSeconds: 110, bytes: null, events: null, origination: 'fixed', recorded: false } as const
  const covered = rateCall(tariff, found.rate, usage, 120_000n)
  const half = rateCall(tariff, found.rate, usage, 60_000n)
  assert.equal(['cost' in covered && covered.cost, 'cost' in half && half.cost], [parseMoney('0.02'), parseMoney('0.12')])
})

test.run()
