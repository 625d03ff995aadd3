import { createHash } from 'node:crypto'
import type { BulkColumn, BulkWriter } from './bulk-insert.js'

const t = (name: string): BulkColumn => ({ name, type: 'text' })
const b = (name: string): BulkColumn => ({ name, type: 'bigint' })
const i = (name: string): BulkColumn => ({ name, type: 'integer' })
const columns = [b('customerID'), b('numberID'), t('callingNumber'), t('dialledNumber'), t('startTime'), i('durationSeconds'), t('callType'), t('chargeBand'), t('carrier'), b('cost'), i('ratedDuration'), t('timeBand'), i('rated'), i('deleted'), t('fingerprint'), t('createdStamp'), t('updatedStamp')]

/**
 * Inserts `calls` rated calls for the benches that bill calls (row-sizes, months): call `n` is
 * on number `n % 3` of customer `n % customers + 1` (three numbers a customer, as `seedCustomers`
 * gives them), started at `startTime(n)`, stamped `stamp` (else when it started).
 */
export async function insertRatedCalls(
  writer: BulkWriter,
  o: { calls: number; customers: number; calling: (customer: number, slot: number, numberID: number) => string; startTime: (n: number) => string; stamp?: string },
): Promise<void> {
  await writer.insert('calls', columns, (function* () {
    for (let n = 0; n < o.calls; n++) {
      const customer = (n % o.customers) + 1
      const number = (customer - 1) * 3 + (n % 3) + 1
      const calling = o.calling(customer, n % 3, number)
      const dialled = `07700${String(900000 + (n % 100000)).padStart(6, '0')}`
      const startTime = o.startTime(n)
      const fingerprint = createHash('sha256').update(`${calling}|${dialled}|${startTime}|${n}`).digest('hex')
      const stamp = o.stamp ?? startTime
      yield [customer, number, calling, dialled, startTime, 30 + (n % 600), 'Mobile', 'UK Mobile', 'BT', 500 + (n % 5000), 60 + (n % 600), 'Peak', 1, 0, fingerprint, stamp, stamp]
    }
  })())
}
