import * as assert from 'uvu/assert'
import type { Harness } from './harness.js'

/** The statements `GET /commissionStatements?<query>` answers (200 asserted). */
export const statements = async (h: Harness, query: string) => {
  const r = await h.request('GET', `/commissionStatements?${query}`)
  assert.is(r.status, 200, JSON.stringify(r.body))
  return r.body.statements as any[]
}

/** A statement's lines as compared by hand: feature, transaction type, commission type, basis, rate, commission. */
export const brief = (lines: any[]) => lines.map((l) => [l.featureID, l.transactionType, l.type, l.basis, l.rate, l.commission])
