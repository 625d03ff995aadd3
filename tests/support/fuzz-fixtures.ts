import { generateArchive } from '../../core/disaster-recovery/archive-jobs.js'
import { bill } from './billing.js'
import type { Harness } from './harness.js'

const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'

/**
 * A little of everything, so that every `:id` of the route table can be filled with a real
 * ID: two or more items per collection, by collection name.
 */
export async function createFixtures(h: Harness, withArchive: boolean): Promise<Record<string, string[]>> {
  const ids: Record<string, string[]> = {}
  const add = async (collection: string, method: string, path: string, body?: unknown, raw?: string) => {
    const r = raw === undefined ? await h.request(method, path, body) : await h.request(method, path, undefined, { raw, headers: { 'content-type': 'text/csv' } })
    if (r.status !== 201) throw new Error(`fixture ${method} ${path}: ${r.status} ${r.text}`)
    ;(ids[collection] ??= []).push(r.body.id)
    return r.body.id as string
  }
  for (const i of [1, 2]) {
    const tariff = await add('tariffs', 'POST', '/tariffs', { name: `Fuzz Tariff ${i}`, baseRoundSeconds: 60, baseCostMin: 0.05 })
    await add('tariffDetails', 'POST', `/tariffs/${tariff}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'day', cost: '0.10' })
    const fixed = await add('fixedFeeTariffs', 'POST', '/fixedFeeTariffs', { name: `Fuzz Fixed ${i}` })
    await add('fixedFeeTariffDetails', 'POST', `/fixedFeeTariffs/${fixed}/fixedFeeTariffDetails`, {})
    const customer = await add('customers', 'POST', '/customers', { companyName: `Fuzz ${i}`, accountNumber: `FZ-${i}`, defaultMobileTariff: 'Fuzz Tariff 1' })
    const number = await add('numbers', 'POST', `/customers/${customer}/numbers`, { number: `01632 960 10${i}` })
    const service = await add('services', 'POST', `/customers/${customer}/services`, {})
    await add('features', 'POST', `/customers/${customer}/features`, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    await add('features', 'POST', `/numbers/${number}/features`, {})
    await add('features', 'POST', `/services/${service}/features`, {})
    await add('customerContacts', 'POST', `/customers/${customer}/customerContacts`, { firstnames: 'Direct' })
    await add('customerContacts', 'POST', '/customerContacts', { firstnames: 'Shared' })
    await add('transactions', 'POST', `/customers/${customer}/transactions`, { transactionType: 'Payment', amount: '5.00' })
    await add('billingRuns', 'POST', '/billingRuns', { name: `Fuzz run ${i}`, cutoffDate: `2026-0${i + 2}-01`, invoiceDate: `2026-0${i + 2}-01` })
    await add('usageFiles', 'POST', `/usageFiles?name=fuzz-${i}.csv`, undefined, `${header}\n0163296010${i},0770090012${i},2026-01-14T10:00:00Z,61,MOB,mobile,Gamma\n`)
  }
  const run = await bill(h, '2026-01-31')
  ids.billingRuns.push(run.id)
  ids.invoices = ((await h.request('GET', '/invoices')).body as { id: string }[]).map((i) => i.id)
  ids.calls = ((await h.request('GET', '/calls')).body as { id: string }[]).map((c) => c.id)
  if (withArchive) ids.disasterRecoveryFiles = [(await generateArchive(h.platform.context)).id]
  return ids
}
