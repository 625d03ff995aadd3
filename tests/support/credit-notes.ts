import type { Harness } from './harness.js'

/** The customer's latest invoice. */
export const lastInvoice = async (h: Harness, c: string) => ((await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]).at(-1)
/** Issues a credit note against an invoice (contract 15.3), answering the response. */
export const credit = (h: Harness, invoiceID: string, body: unknown) => h.request('POST', `/invoices/${invoiceID}/creditNotes`, body)
export const balanceOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}`)).body.balance
/** What is stored of credit notes and the ledger: a refused request must leave it as it was. */
export const stored = async (h: Harness) => [(await h.request('GET', '/creditNotes?limit=1000')).body.length, (await h.request('GET', '/transactions?limit=1000')).body.length]
