import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { RunProgressCounter } from '../../core/billing/run-progress.js'
import type { Stamp } from '../../core/dates/stamp.js'

const test = suite('billing run progress: counts and the estimate')
const at = (s: string) => `2026-02-01T10:${s}.000Z` as Stamp

test('a fresh run: nothing done has no estimate; then the customers left at the pace so far', () => {
  const p = new RunProgressCounter('7', at('00:00'), 10, { customers: 0, invoices: 0 })
  assert.equal(p.at(at('00:05')), { runID: '7', customersTotal: 10, customersDone: 0, invoiceCount: 0, estimatedCompletion: null })
  p.add(3, 2)
  // 3 customers in 30 s: 10 s each, 7 left → 70 s after now.
  assert.equal(p.at(at('00:30')), { runID: '7', customersTotal: 10, customersDone: 3, invoiceCount: 2, estimatedCompletion: at('01:40') })
})

test('a step about to commit is counted with the progress it stores', () => {
  const p = new RunProgressCounter('1', at('00:00'), 4, { customers: 0, invoices: 0 })
  p.add(1, 1)
  assert.equal(p.at(at('00:20'), { customers: 1, invoices: 0 }), { runID: '1', customersTotal: 4, customersDone: 2, invoiceCount: 1, estimatedCompletion: at('00:40') })
})

test('a resumed run carries what the interrupted one did, and is paced by this execution alone', () => {
  // 4 customers and 2 invoices before the crash; 6 follow the resume point.
  const p = new RunProgressCounter('2', at('30:00'), 6, { customers: 4, invoices: 2 })
  p.add(2, 2)
  // 2 in 10 s since the restart: 5 s each, 4 left.
  assert.equal(p.at(at('30:10')), { runID: '2', customersTotal: 10, customersDone: 6, invoiceCount: 4, estimatedCompletion: at('30:30') })
})

test('customers created during the run raise the total instead of being passed; the estimate is then now', () => {
  const p = new RunProgressCounter('3', at('00:00'), 2, { customers: 0, invoices: 0 })
  p.add(3, 3)
  assert.equal(p.at(at('00:09')), { runID: '3', customersTotal: 3, customersDone: 3, invoiceCount: 3, estimatedCompletion: at('00:09') })
})

test.run()
