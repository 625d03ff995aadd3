import * as assert from 'uvu/assert'
import type { Store } from '../../core/ports/store.js'
import type { Harness } from './harness.js'

/**
 * Runs `hook` on the stores of each billing step (`Store.pipelinedTransaction`: the transaction's
 * and the one that reads beside it) before the step's work, until the returned function is called.
 */
export function onBillingSteps(store: Store, hook: (trx: Store, reads: Store) => void): () => void {
  const original = store.pipelinedTransaction.bind(store)
  const steps = store as { pipelinedTransaction: Store['pipelinedTransaction'] }
  steps.pipelinedTransaction = (work) =>
    original((trx, reads) => {
      hook(trx, reads)
      return work(trx, reads)
    })
  return () => {
    steps.pipelinedTransaction = original
  }
}

/** Creates a run with the given cutoff, requests it and runs the billing job to completion. */
export async function bill(h: Harness, cutoffDate: string, extra: Record<string, unknown> = {}) {
  const run = await h.request('POST', '/billingRuns', { name: `run ${cutoffDate}`, cutoffDate, invoiceDate: cutoffDate, status: 'Requested', ...extra })
  assert.is(run.status, 201, JSON.stringify(run.body))
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('billing-poll')
  await scheduler.stop()
  const done = (await h.request('GET', `/billingRuns/${run.body.id}`)).body
  assert.is(done.status, 'Complete', JSON.stringify(done))
  return done
}

/** A feature's transactions as [type, from, to, amount] rows, in ID order. */
export async function ledgerOf(h: Harness, featureID: string): Promise<[string, string, string, number][]> {
  const rows = (await h.request('GET', `/features/${featureID}/transactions?limit=1000`)).body as any[]
  return rows.map((t) => [t.transactionType, t.dateFrom, t.dateTo, t.amount])
}

export async function newCustomer(h: Harness, body: Record<string, unknown> = {}): Promise<string> {
  const r = await h.request('POST', '/customers', body)
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body.id
}

export async function newFeature(h: Harness, customerID: string, body: Record<string, unknown>): Promise<string> {
  const r = await h.request('POST', `/customers/${customerID}/features`, body)
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body.id
}

export async function act(h: Harness, path: string, action: string, body: Record<string, unknown>) {
  const r = await h.request('POST', `${path}?action=${action}`, body)
  assert.is(r.status, 200, `${action}: ${JSON.stringify(r.body)}`)
  return r.body
}
