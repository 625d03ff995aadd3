import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { addDays, addMonths, daysBetween, parseDate, type DateOnly } from '../../core/dates/date-only.js'
import { parseDatetime } from '../../core/dates/stamp.js'

const test = suite('core/dates')
const day = fc
  .date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2200, 11, 31)), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10) as DateOnly)

test('parseDate accepts exactly the real calendar dates in strict form', () => {
  fc.assert(fc.property(day, (d) => parseDate(d) === d))
  for (const bad of ['2025-02-29', '2023-13-01', '2023-00-10', '2023-04-31', '2023-4-01', '23-04-01', '2023-04-01T00:00:00', '2023-04-01Z', ' 2023-04-01', '', 20230401]) {
    assert.is(parseDate(bad), null, `should refuse ${bad}`)
  }
  assert.is(parseDate('2024-02-29'), '2024-02-29')
  assert.is(parseDate('2000-02-29'), '2000-02-29')
  assert.is(parseDate('1900-02-29'), null)
})

test('addDays and daysBetween agree', () => {
  fc.assert(fc.property(day, fc.integer({ min: -4000, max: 4000 }), (d, n) => daysBetween(d, addDays(d, n)) === n))
})

test('addMonths clamps to the end of the month', () => {
  assert.is(addMonths('2025-01-31' as DateOnly, 1), '2025-02-28')
  assert.is(addMonths('2024-01-31' as DateOnly, 1), '2024-02-29')
  assert.is(addMonths('2024-11-30' as DateOnly, 3), '2025-02-28')
  assert.is(addDays('0099-12-31' as DateOnly, 1), '0100-01-01')
})

test('parseDatetime: contract forms, UTC by default, offsets applied', () => {
  assert.is(parseDatetime('2026-01-02T03:04:05'), '2026-01-02T03:04:05.000Z')
  assert.is(parseDatetime('2026-01-02T03:04:05Z'), '2026-01-02T03:04:05.000Z')
  assert.is(parseDatetime('2026-01-02T03:04:05.5+01:00'), '2026-01-02T02:04:05.500Z')
  assert.is(parseDatetime('2026-01-02T00:30:00-02:30'), '2026-01-02T03:00:00.000Z')
  for (const bad of ['2026-01-02T03:04', '2026-01-02 03:04:05', '2026-02-30T00:00:00', '2026-01-02T24:00:00', '2026-01-02T03:04:05+1:00', '2026-01-02']) {
    assert.is(parseDatetime(bad), null, `should refuse ${bad}`)
  }
})

test('datetime text order is time order', () => {
  const instant = fc.integer({ min: 0, max: 4102444800000 })
  fc.assert(
    fc.property(instant, instant, (a, b) => {
      const sa = parseDatetime(new Date(a).toISOString())!
      const sb = parseDatetime(new Date(b).toISOString())!
      return Math.sign(a - b) === Math.sign(sa < sb ? -1 : sa > sb ? 1 : 0)
    }),
  )
})

test.run()
