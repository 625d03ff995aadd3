import type { InvoiceSources } from '../../core/documents/invoice-sources.js'
import { add, fromUnits, sum, ZERO, type Money } from '../../core/money/money.js'

const pence = (n: number): Money => fromUnits(BigInt(n) * 100n)
const classes = ['national', 'mobile', 'international', 'nongeographic'] as const

/**
 * A synthetic invoice for the documents benchmark, as plain data (what `readInvoiceSources`
 * reads): `charges` recurring lines over the numbers, one service line, and `calls` calls over
 * `numbers` numbers with one Call Charges line each.
 */
export function syntheticSources(id: number, o: { numbers: number; charges: number; calls: number }): InvoiceSources {
  const numbers = Array.from({ length: o.numbers }, (_, i) => ({
    id: `n${i}`,
    number: `0161 496 ${String(1000 + i)}`,
    description: i === 0 ? 'Reception' : `Extension ${i + 1}`,
    displayWith: i % 2 ? 'Warehouse' : 'Head office',
    shortBillPages: [],
    longBillPages: [],
  }))
  const calls = Array.from({ length: o.calls }, (_, i) => ({
    id: `c${i}`,
    numberID: `n${i % o.numbers}`,
    transactionID: `t-calls-${i % o.numbers}`,
    startTime: `2026-01-${String(2 + (i % 28)).padStart(2, '0')}T${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00.000Z`,
    dialledNumber: `07700 900${String(i % 1000).padStart(3, '0')}`,
    callType: classes[i % classes.length],
    chargeBand: 'MOB',
    durationSeconds: 30 + (i % 900),
    ratedDuration: 60 + (i % 900),
    cost: pence(3 + (i % 250)),
  }))
  const lines = [
    ...Array.from({ length: o.charges }, (_, i) => ({
      id: `t${i}`,
      transactionType: 'Recurring Charge',
      featureID: 'f1',
      numberID: i % 5 === 0 ? null : `n${i % o.numbers}`,
      serviceID: null,
      amount: pence(1450 + i),
      dateFrom: '2026-01-01',
      dateTo: '2026-01-31',
      transactionDate: '2026-01-01',
    })),
    { id: 's1', transactionType: 'Recurring Charge', featureID: 'f2', numberID: null, serviceID: 'svc1', amount: pence(6400), dateFrom: '2026-01-01', dateTo: '2026-01-31', transactionDate: '2026-01-01' },
    ...(o.calls
      ? numbers.map((n, i) => ({
          id: `t-calls-${i}`,
          transactionType: 'Call Charges',
          featureID: null,
          numberID: n.id,
          serviceID: null,
          amount: sum(calls.filter((c) => c.numberID === n.id).map((c) => c.cost)),
          dateFrom: '2026-01-02',
          dateTo: '2026-01-29',
          transactionDate: '2026-01-31',
        }))
      : []),
  ].map((t) => ({ ...t, VATRate: 'Standard 20%', VATAmount: (t.amount / 5n) as Money, description: null }))
  const net = sum(lines.map((t) => t.amount))
  const vat = sum(lines.map((t) => t.VATAmount))
  return {
    invoice: { id: String(id), invoiceDate: '2026-01-31', dueDate: '2026-02-14', netAmount: net, VATAmount: vat, totalAmount: add(net, vat), amountPaid: ZERO, amountOutstanding: add(net, vat), status: 'Unpaid', invoiceMessage: 'Direct Debit reminder' } as never,
    customer: {
      id: 'c1', accountNumber: `NWT-${id}`, companyName: 'Northwind Trading Ltd', billToDepartment: 'Accounts Payable', address1: 'Unit 4, Riverside Park', address3: 'Manchester', postcode: 'M3 4LZ',
      customerReference: 'NWT-ACCTS-7', purchaseOrderNumber: 'PO-2026-0142', customerVATNumber: 'GB 123 4567 89', currency: 'GBP', shortBillPages: [], longBillPages: [], billStyle: 'Standard',
    } as never,
    transactions: lines as never,
    features: [
      { id: 'f1', description: 'Business line rental', featureType: 'Line Rental' },
      { id: 'f2', description: 'FTTP 900/110', featureType: 'Broadband' },
    ],
    numbers,
    services: [{ id: 'svc1', serviceName: 'Office broadband', serviceType: 'FTTP', description: null }],
    calls: calls as never,
    payments: [],
  }
}
