/**
 * A customer with numbers, services, features and calls, billed once: the invoice the document
 * tests, the sample pictures (scripts/invoice-samples.ts) and the HTTP benchmark read. It goes
 * through the HTTP API only, so it serves a test harness and a library's `billing.http` alike.
 */
export interface WorldApi {
  request(method: string, path: string, body?: unknown, options?: { raw?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any }>
}

export interface WorldOptions {
  /** Numbers of the customer (each with a line rental); calls are shared out over them. */
  readonly numbers: number
  readonly calls: number
  /** Extra customer fields (billStyle, page lists, messages, ...). */
  readonly customer?: Record<string, unknown>
  /** A payment made after the invoice is raised (its Payments page), or none. */
  readonly payment?: string
  readonly accountNumber?: string
}

export interface World {
  readonly customerID: string
  readonly numberIDs: string[]
  readonly invoice: any
}

const ok = async (api: WorldApi, method: string, path: string, body?: unknown, options?: { raw?: string; headers?: Record<string, string> }) => {
  const r = await api.request(method, path, body, options)
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}

const classes = [
  ['national', 'NAT', '01632 960'],
  ['mobile', 'MOB', '07700 900'],
  ['international', 'INT', '+33 1 70 36'],
  ['nongeographic', 'NGN', '0345 600'],
] as const

/** Builds the world and bills January 2026 (`bill` runs the requested billing run to completion). */
export async function invoiceWorld(api: WorldApi, bill: () => Promise<void>, o: WorldOptions): Promise<World> {
  const account = o.accountNumber ?? `NW-${Math.random().toString(36).slice(2, 8).toUpperCase()}`
  const tariff = `Business Calls ${account}`
  const t = await ok(api, 'POST', '/tariffs', { name: tariff, baseRoundSeconds: 1 })
  const rates = { NAT: '0.0200', MOB: '0.0900', INT: '0.2400', NGN: '0.0500' }
  for (const [band, cost] of Object.entries(rates)) await ok(api, 'POST', `/tariffs/${t.id}/tariffDetails`, { chargeBand: band, timeBand: 'any', cost, costConnection: '0.01' })
  const customer = await ok(api, 'POST', '/customers', {
    accountNumber: account,
    companyName: 'Northwind Trading Ltd',
    billToDepartment: 'Accounts Payable',
    address1: 'Unit 4, Riverside Park',
    address2: '12 Wharf Road',
    address3: 'Manchester',
    postcode: 'M3 4LZ',
    customerReference: 'NWT-ACCTS-7',
    purchaseOrderNumber: 'PO-2026-0142',
    customerVATNumber: 'GB 123 4567 89',
    currency: 'GBP',
    VATRate: 'Standard 20%',
    VATRateCalls: 'Standard 20%',
    defaultNationalTariff: tariff,
    defaultMobileTariff: tariff,
    defaultInternationalTariff: tariff,
    defaultNongeographicTariff: tariff,
    ...o.customer,
  })
  const c = customer.id as string
  const numberIDs: string[] = []
  // Numbers of earlier worlds on the same platform are not reused: calls go to a number's owner.
  const first = 100 + (await ok(api, 'GET', '/numbers?limit=1000')).length
  const digits = (i: number) => String(first + i).padStart(4, '0')
  for (let i = 0; i < o.numbers; i++) {
    const n = await ok(api, 'POST', `/customers/${c}/numbers`, {
      number: `0161 496 ${digits(i)}`,
      description: i === 0 ? 'Reception' : `Extension ${i + 1}`,
      displayWith: i % 2 === 0 ? 'Head office' : 'Warehouse',
    })
    numberIDs.push(n.id)
    await ok(api, 'POST', `/numbers/${n.id}/features`, { featureType: 'Line Rental', description: 'Business line rental', startDate: '2026-01-01', serviceCharge: '14.50', serviceChargeInterval: 'Calendar Monthly' })
  }
  await ok(api, 'POST', `/customers/${c}/features`, { featureType: 'Support', description: 'Premium support', startDate: '2026-01-01', serviceCharge: '45.00', serviceChargeInterval: 'Calendar Monthly' })
  const service = await ok(api, 'POST', `/customers/${c}/services`, { serviceType: 'FTTP', serviceName: 'Office broadband (FTTP 900)' })
  await ok(api, 'POST', `/services/${service.id}/features`, { featureType: 'Broadband', description: 'FTTP 900/110', startDate: '2026-01-01', serviceCharge: '64.00', connectionCharge: '99.00', serviceChargeInterval: 'Calendar Monthly' })
  await ok(api, 'POST', `/services/${service.id}/features`, { featureType: 'Static IP', startDate: '2026-01-01', serviceCharge: '5.00', serviceChargeInterval: 'Calendar Monthly' })
  if (o.calls > 0) {
    const rows = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID']
    for (let i = 0; i < o.calls; i++) {
      const [callClass, band, prefix] = classes[i % classes.length]
      const day = 2 + (i % 28)
      const second = 8 * 3600 + ((i * 677) % (10 * 3600))
      const time = `${String(Math.floor(second / 3600)).padStart(2, '0')}:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}`
      const number = `0161496${digits(i % o.numbers)}`
      rows.push(`${number},${prefix} ${String(i % 1000).padStart(3, '0')},2026-01-${String(day).padStart(2, '0')}T${time}Z,${15 + ((i * 53) % 900)},${band},${callClass},Gamma,${account}-${i}`)
    }
    await ok(api, 'POST', '/usageFiles?name=january.csv', undefined, { raw: rows.join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
  }
  await ok(api, 'POST', '/billingRuns', { name: `January ${account}`, cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', dueDate: '2026-02-14', status: 'Requested' })
  await bill()
  const invoices = await ok(api, 'GET', `/customers/${c}/invoices`)
  if (invoices.length !== 1) throw new Error(`expected one invoice, got ${invoices.length}`)
  if (o.payment) {
    await ok(api, 'POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: o.payment, transactionDate: '2026-02-03', description: 'Direct Debit collection' })
  }
  return { customerID: c, numberIDs, invoice: await ok(api, 'GET', `/invoices/${invoices[0].id}`) }
}
