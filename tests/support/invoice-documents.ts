import { bill } from './billing.js'
import { BASE, type Harness } from './harness.js'
import { invoiceWorld, type WorldOptions } from './invoice-world.js'

/** GET /invoices/<id> with an Accept header, as bytes (the harness's client reads text). */
export async function getDocument(h: Harness, id: string, accept: string, query = ''): Promise<{ status: number; type: string; bytes: Uint8Array; headers: Headers }> {
  const res = await h.platform.app.request(`${BASE}/invoices/${id}${query}`, { headers: { authorization: `Bearer ${h.keys.admin}`, accept } })
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers }
}

/** The invoice world on a test harness, billed by the harness's scheduler. */
export const worldOn = (h: Harness, o: WorldOptions) =>
  invoiceWorld(h, async () => {
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
  }, o)

/** `123.4` → `£123.40`: an amount of the JSON invoice as the documents print it (GBP, grouped). */
export const pounds = (n: number): string => {
  const [whole, fraction] = Math.abs(n).toFixed(2).split('.')
  return `${n < 0 ? '-' : ''}£${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`
}

/** The JSON invoice's own amounts, by field. */
export const invoiceAmounts = (invoice: any): Record<string, number> => ({
  netAmount: invoice.netAmount,
  VATAmount: invoice.VATAmount,
  totalAmount: invoice.totalAmount,
  amountPaid: invoice.amountPaid,
  amountOutstanding: invoice.amountOutstanding,
})

export { bill }
