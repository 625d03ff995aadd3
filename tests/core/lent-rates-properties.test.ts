import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Stamp } from '../../core/dates/stamp.js'
import type { Item } from '../../core/fields/item.js'
import { findRate } from '../../core/rating/find-rate.js'
import { withParents } from '../../core/rating/parent-tariffs.js'
import type { RatingTariff, TariffDetail } from '../../core/rating/rating-tariff.js'
import { lentRows } from '../../core/tariffs/lent-rates.js'

// Contract 17.7 and 9.6: a child's own rows that match a call decide before any ancestor's; a
// copy of the child (createIncreaseVersion) holding `lentRows` as its own, with no parent,
// prices every call as the child does.
const test = suite('core/tariffs lent rates (properties)')

const BANDS = ['A', 'B'] as const
const DATES = [null, '2026-01-10', '2026-01-20', '2026-02-01', '2026-02-15'] as const

const rowArb = fc.record({
  chargeBand: fc.constantFrom(...BANDS),
  timeBand: fc.constantFrom('day', 'evening', 'weekend', 'any'),
  startDate: fc.constantFrom(...DATES),
  endDate: fc.constantFrom(...DATES),
  cost: fc.integer({ min: 1, max: 9999 }),
})
const worldArb = fc.record({
  // The child first, then its parent, grandparent, ...
  chain: fc.array(fc.array(rowArb, { maxLength: 5 }), { minLength: 1, maxLength: 3 }),
  single: fc.boolean(),
})

// Calls over the dates above: a weekday morning (day), a weekday night (evening), a Saturday (weekend).
const CALL_DAYS = ['2026-01-05', '2026-01-09', '2026-01-10', '2026-01-12', '2026-01-20', '2026-01-31', '2026-02-02', '2026-02-15', '2026-02-20']
const calls = CALL_DAYS.flatMap((d) => [`${d}T10:00:00.000Z`, `${d}T20:00:00.000Z`]).concat(['2026-01-10T10:00:00.000Z', '2026-02-14T10:00:00.000Z'])

test('a copy holding lentRows prices every call as the child with its ancestors does', () => {
  fc.assert(
    fc.property(worldArb, ({ chain, single }) => {
      let serial = 0
      const rows = chain.map((rs) => rs.map((r) => ({ id: String(++serial), ...r, cost: r.cost / 10000 })))
      const singleRate = single ? 'single' : null
      const stored = new Map<string, RatingTariff>()
      rows.forEach((details, i) =>
        stored.set(`T${i}`, { id: String(i), name: `T${i}`, singleRate, parentTariff: i + 1 < rows.length ? String(i + 1) : null, details: details as TariffDetail[] }),
      )
      const child = withParents(stored).get('T0')!
      const lent = lentRows(rows[0] as unknown as Item[], rows.slice(1) as unknown as Item[][], single)
      const copy: RatingTariff = { id: 'copy', name: 'copy', singleRate, details: [...rows[0], ...lent] as unknown as TariffDetail[] }
      for (const band of BANDS)
        for (const startTime of calls) {
          const call = { chargeBand: band, startTime: startTime as Stamp }
          const [want, got] = [findRate(child, call), findRate(copy, call)]
          assert.is(got?.rate.cost ?? null, want?.rate.cost ?? null, `${band} ${startTime}: ${JSON.stringify(lent)}`)
        }
    }),
    { numRuns: 1000 },
  )
})

test("a child's own row matching the call beats its parent's, whatever their time bands", () => {
  const tariffs = withParents(
    new Map<string, RatingTariff>([
      ['P', { id: '1', name: 'P', details: [{ chargeBand: 'A', timeBand: 'day', cost: 0.1 }, { chargeBand: 'A', timeBand: 'any', cost: 0.07 }] }],
      ['C', { id: '2', name: 'C', parentTariff: '1', details: [{ chargeBand: 'A', timeBand: 'any', cost: 0.02, startDate: '2026-02-01' as never }] }],
    ]),
  )
  const cost = (startTime: string) => findRate(tariffs.get('C')!, { chargeBand: 'A', startTime: startTime as Stamp })?.rate.cost
  assert.is(cost('2026-02-02T10:00:00.000Z'), 200n, 'its own any row, not the parent’s day row')
  assert.is(cost('2026-01-12T10:00:00.000Z'), 1000n, 'before its own row starts, the parent’s day row')
  assert.is(cost('2026-01-12T20:00:00.000Z'), 700n, 'and the parent’s any row in the evening')
})

test.run()
