import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runProgress } from '../../core/billing/run-progress.js'
import type { Stamp } from '../../core/dates/stamp.js'
import type { PartitionTotals } from '../../core/ports/run-partitions.js'

const test = suite('billing run progress: partition totals and the estimate')
const at = (s: string) => `2026-02-01T10:${s}.000Z` as Stamp
const totals = (t: Partial<PartitionTotals>): PartitionTotals => ({ partitions: 1, open: 1, active: 1, planning: false, customersTotal: 0, customersDone: 0, invoiceCount: 0, ...t })

test('nothing done here has no estimate; then the customers left at this execution pace', () => {
  assert.equal(runProgress('7', totals({ customersTotal: 10 }), { startedAt: at('00:00'), customers: 0 }, at('00:05')), {
    runID: '7',
    customersTotal: 10,
    customersDone: 0,
    invoiceCount: 0,
    estimatedCompletion: null,
  })
  // 3 customers in 30 s: 10 s each, 7 left → 70 s after now.
  assert.equal(runProgress('7', totals({ customersTotal: 10, customersDone: 3, invoiceCount: 2 }), { startedAt: at('00:00'), customers: 3 }, at('00:30')), {
    runID: '7',
    customersTotal: 10,
    customersDone: 3,
    invoiceCount: 2,
    estimatedCompletion: at('01:40'),
  })
})

test('a resumed run counts what the partitions hold, and is paced by this execution alone', () => {
  // 6 done in all, 2 of them in the 10 s since this execution started: 5 s each, 4 left.
  const p = runProgress('2', totals({ customersTotal: 10, customersDone: 6, invoiceCount: 4 }), { startedAt: at('30:00'), customers: 2 }, at('30:10'))
  assert.equal(p, { runID: '2', customersTotal: 10, customersDone: 6, invoiceCount: 4, estimatedCompletion: at('30:30') })
})

test('the customers left are shared among the workers holding partitions now', () => {
  // 5 s a customer here, 8 left, 4 workers: 10 s.
  const p = runProgress('4', totals({ customersTotal: 12, customersDone: 4, active: 4 }), { startedAt: at('00:00'), customers: 2 }, at('00:10'))
  assert.is(p.estimatedCompletion, at('00:20'))
})

test('customers created during the run raise the total instead of being passed; the estimate is then now', () => {
  const p = runProgress('3', totals({ customersTotal: 2, customersDone: 3, invoiceCount: 3 }), { startedAt: at('00:00'), customers: 3 }, at('00:09'))
  assert.equal(p, { runID: '3', customersTotal: 3, customersDone: 3, invoiceCount: 3, estimatedCompletion: at('00:09') })
})

test.run()
