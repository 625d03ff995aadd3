import type { Harness } from './harness.js'

/**
 * `count` customers of three features each (starts, prices and intervals varied by index), the
 * same on every harness, IDs included: the data the crash tests bill and compare ledgers of.
 */
export async function seedCrashCustomers(h: Harness, count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const c = (await h.request('POST', '/customers', { accountNumber: `${prefix}-${i}`, VATRate: 'Standard 20%' })).body.id
    for (let j = 0; j < 3; j++) {
      await h.request('POST', `/customers/${c}/features`, {
        startDate: `2026-0${1 + (j % 3)}-${String(1 + ((i * 7 + j) % 27)).padStart(2, '0')}`,
        serviceCharge: `${(i % 9) + j + 1}.${String((i * 13) % 100).padStart(2, '0')}`,
        serviceChargeInterval: ['Calendar Monthly', 'Monthly', 'Calendar Quarterly'][j],
        connectionCharge: j === 0 ? 15 : null,
      })
    }
  }
}
