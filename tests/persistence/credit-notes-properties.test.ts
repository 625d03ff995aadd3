import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { bill, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const cents = (x: number) => Math.round(x * 100)
const money = (p: number) => (p / 100).toFixed(2)
const rates = ['Standard 20%', 'Reduced 5%', 'Zero Rated'] as const

const operation = fc.oneof(
  fc.record({ kind: fc.constant('amount' as const), pence: fc.integer({ min: -50, max: 9_000 }) }),
  fc.record({ kind: fc.constant('line' as const), line: fc.nat(3), pence: fc.option(fc.integer({ min: 1, max: 6_000 })) }),
  fc.record({ kind: fc.constant('payment' as const), pence: fc.integer({ min: 1, max: 9_000 }) }),
  fc.record({ kind: fc.constant('refund' as const), pence: fc.integer({ min: 1, max: 6_000 }) }),
)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`credit notes: balance properties [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-06-01T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('credited ≤ invoiced per line; balance = invoices − credit notes − payments + refunds = outstanding − held', async ({ h }) => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        // Some lines below zero (a discount): an amount credits them too, below zero (contract 15.3).
        fc.array(fc.record({ pence: fc.integer({ min: -2_000, max: 5_000 }).filter((p) => p !== 0), rate: fc.constantFrom(...rates) }), { minLength: 1, maxLength: 4 }),
        fc.array(operation, { maxLength: 7 }),
        async (charges, operations) => {
          const cutoff = addDays('2026-06-01' as DateOnly, run++)
          h.clock.set(`${cutoff}T09:00:00Z`)
          const c = await newCustomer(h)
          const lines: string[] = []
          for (const ch of charges) {
            const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType: ch.pence > 0 ? 'Installation' : 'Recurring Charge Discount', amount: money(ch.pence), VATRate: ch.rate })
            lines.push(r.body.id)
          }
          await bill(h, cutoff)
          const [invoice] = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
          let payments = 0
          let refunds = 0
          for (const op of operations) {
            if (op.kind === 'payment') {
              assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: money(op.pence) })).status, 201)
              payments += op.pence
            } else if (op.kind === 'refund') {
              const r = await h.request('POST', `/customers/${c}/refunds`, { amount: money(op.pence) })
              assert.ok(r.status === 201 || r.body.error_code === 400101, r.text)
              if (r.status === 201) refunds += op.pence
            } else {
              const body = op.kind === 'amount' ? { reason: 'p', amount: money(op.pence) } : { reason: 'p', lines: [{ transactionID: lines[op.line % lines.length], ...(op.pence === null ? {} : { amount: money(op.pence) }) }] }
              const r = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, body)
              assert.ok(r.status === 201 || r.body.error_code === 400101, r.text)
            }
          }
          const ledger = (await h.request('GET', `/customers/${c}/transactions?limit=1000`)).body as any[]
          for (const id of lines) {
            const line = ledger.find((t) => t.id === id)
            const credits = ledger.filter((t) => t.creditedTransactionID === id)
            // Between zero and invoiced, on the line's side of zero.
            const within = (credited: number, invoiced: number) => (invoiced >= 0 ? credited >= 0 && credited <= invoiced : credited <= 0 && credited >= invoiced)
            assert.ok(within(-credits.reduce((s, t) => s + cents(t.amount), 0), cents(line.amount)), 'net credited ≤ invoiced')
            assert.ok(within(-credits.reduce((s, t) => s + cents(t.VATAmount), 0), cents(line.VATAmount)), 'VAT credited ≤ invoiced')
          }
          const notes = (await h.request('GET', `/customers/${c}/creditNotes?limit=1000`)).body as any[]
          for (const n of notes) {
            const mine = ledger.filter((t) => t.creditNoteID === n.id)
            assert.is(mine.reduce((s, t) => s + cents(t.amount) + cents(t.VATAmount), 0), cents(n.totalAmount), 'a note is its lines')
          }
          const invoices = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
          const customer = (await h.request('GET', `/customers/${c}`)).body
          const expected = cents(invoice.totalAmount) + notes.reduce((s, n) => s + cents(n.totalAmount), 0) - payments + refunds
          assert.is(cents(customer.balance), expected, 'balance = invoices − credit notes − payments + refunds')
          const held = (await h.platform.context.store.receivables.heldCredits([c])).get(c)!
          assert.is(cents(customer.balance), invoices.reduce((s, i) => s + cents(i.amountOutstanding), 0) - Number(held / 100n), 'balance = outstanding − held')
        },
      ),
      { numRuns: target === 'sqlite-memory' ? 25 : 10 },
    )
  })

  test.run()
}
