import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { allocateAccount } from '../../core/billing/allocation.js'
import type { AccountInvoice, KeptAllocation, Settlement } from '../../core/ports/receivables.js'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import type { Money } from '../../core/money/money.js'
import { act, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const day = (n: number) => addDays('2026-01-01' as DateOnly, n)
const cents = (x: number) => Math.round(x * 100)

const pure = suite('allocation properties (pure)')

pure('allocations never exceed an invoice total; paid + held = settlements + credits; allocating again is the same', () => {
  const invoice = fc.record({ due: fc.integer({ min: 0, max: 90 }), total: fc.integer({ min: -5_000, max: 20_000 }) })
  const settlement = fc.record({ on: fc.integer({ min: 0, max: 90 }), amount: fc.integer({ min: 1, max: 20_000 }) })
  fc.assert(
    fc.property(fc.array(invoice, { maxLength: 8 }), fc.array(settlement, { maxLength: 8 }), fc.integer({ min: 0, max: 120 }), (is, ss, today) => {
      const invoices: AccountInvoice[] = is.map((x, i) => ({
        id: String(i + 1),
        invoiceDate: day(x.due),
        dueDate: day(x.due + 14),
        overdueDate: day(x.due + 14),
        totalAmount: BigInt(x.total * 100) as Money,
      }))
      const settlements: Settlement[] = ss.map((x, i) => ({ kind: 'transaction', id: String(i + 1), date: day(x.on), amount: BigInt(x.amount * 100) as Money }))
      const a = allocateAccount(invoices, settlements, day(today))
      let paid = 0n
      for (const i of invoices) {
        const p = a.invoices.get(i.id)!
        if (i.totalAmount > 0n) {
          assert.ok(p.amountPaid >= 0n && p.amountPaid <= i.totalAmount)
          paid += p.amountPaid
        }
        assert.is(p.amountOutstanding, i.totalAmount > 0n ? i.totalAmount - p.amountPaid : 0n)
        assert.is(p.status === 'Paid', p.amountOutstanding === 0n)
      }
      const credits = invoices.filter((i) => i.totalAmount < 0n).reduce((s, i) => s - i.totalAmount, 0n)
      const settled = settlements.reduce((s, x) => s + x.amount, 0n)
      assert.is(paid + a.held, settled + credits)
      // Money is held only when every invoice is paid.
      if (a.held > 0n) assert.ok([...a.invoices.values()].every((p) => p.status === 'Paid'))
      assert.equal(allocateAccount(invoices, settlements, day(today)), a)
    }),
  )
})

pure('allocation is final: invoices raised and money paid in any order never take money off an invoice (contract 17.6)', () => {
  const event = fc.oneof(
    fc.record({ kind: fc.constant('invoice' as const), due: fc.integer({ min: 0, max: 120 }), total: fc.integer({ min: -5_000, max: 20_000 }) }),
    fc.record({ kind: fc.constant('payment' as const), due: fc.constant(0), total: fc.integer({ min: 1, max: 20_000 }) }),
  )
  fc.assert(
    fc.property(fc.array(event, { maxLength: 14 }), (events) => {
      const invoices: AccountInvoice[] = []
      const settlements: Settlement[] = []
      let kept: KeptAllocation[] = []
      let before = new Map<string, bigint>()
      events.forEach((e, n) => {
        // Raised or paid on day n; a new invoice's due date may fall before an older one's (terms changed).
        if (e.kind === 'invoice') invoices.push({ id: String(n + 1), invoiceDate: day(n), dueDate: day(e.due), overdueDate: day(e.due), totalAmount: BigInt(e.total * 100) as Money })
        else settlements.push({ kind: 'transaction', id: String(n + 1), date: day(n), amount: BigInt(e.total * 100) as Money })
        const a = allocateAccount(invoices, settlements, day(n), kept)
        for (const [id, paid] of before) assert.ok(a.invoices.get(id)!.amountPaid >= paid, `invoice ${id} lost money: ${paid} → ${a.invoices.get(id)!.amountPaid}`)
        // What is stored is what the next allocation starts from.
        kept = a.allocations.map((x) => ({ invoiceID: x.invoiceID, source: { kind: x.source.kind, id: x.source.id }, amount: x.amount }))
        before = new Map([...a.invoices].map(([id, p]) => [id, p.amountPaid]))
        assert.equal(allocateAccount(invoices, settlements, day(n), kept), a, 'allocating again changes nothing')
      })
    }),
  )
})

pure("a credit note's line that gives a discount back nets against its own note: the note pays its own invoice by its total, not another's", () => {
  // Invoice 1 (54.00) credited whole: its note's lines pay 60.00 and take back 6.00 (the discount's
  // share). A payment the same day, later (ID 3), pays invoice 2. The 6.00 comes off the note, not
  // the payment: the note pays invoice 1 alone, the payment invoice 2 alone.
  const invoices: AccountInvoice[] = [
    { id: '1', invoiceDate: day(0), dueDate: day(10), overdueDate: day(10), totalAmount: 54_0000n as Money },
    { id: '2', invoiceDate: day(0), dueDate: day(20), overdueDate: day(20), totalAmount: 100_0000n as Money },
  ]
  const settlements: Settlement[] = [
    { kind: 'transaction', id: '1', date: day(5), amount: 60_0000n as Money, vat: 10_0000n as Money, invoiceID: '1' },
    { kind: 'transaction', id: '2', date: day(5), amount: -6_0000n as Money, vat: -1_0000n as Money, invoiceID: '1' },
    { kind: 'transaction', id: '3', date: day(5), amount: 100_0000n as Money },
  ]
  const a = allocateAccount(invoices, settlements, day(5))
  assert.equal(a.allocations.map((x) => [x.source.id, x.invoiceID, x.amount]), [['1', '1', 54_0000n], ['3', '2', 100_0000n]])
  assert.is(a.held, 0n)
})

pure.run()

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`allocation properties on the database [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T00:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('random histories of charges, payments, credits, runs and write-offs: allocations within totals, paid + held = payments + credits, a re-run changes nothing', async ({ h }) => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('charge' as const), amount: fc.integer({ min: 1, max: 50_000 }) }),
      fc.record({ kind: fc.constant('payment' as const), amount: fc.integer({ min: 1, max: 50_000 }) }),
      fc.record({ kind: fc.constant('credit' as const), amount: fc.integer({ min: 1, max: 50_000 }) }),
      fc.record({ kind: fc.constant('run' as const), amount: fc.constant(0) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), fc.boolean(), async (steps, writeOff) => {
        const c = await newCustomer(h, { paymentTerms: 7 })
        let d = 0
        let lastCutoff = ''
        for (const s of steps) {
          d += 5
          const on = day(d)
          if (s.kind === 'run') {
            const r = await h.request('POST', '/billingRuns', { cutoffDate: on, invoiceDate: on, status: 'Requested' })
            assert.is(r.status, 201)
            const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
            await scheduler.runNow('billing-poll')
            await scheduler.stop()
            lastCutoff = on
            continue
          }
          const transactionType = s.kind === 'charge' ? 'Debit Note' : s.kind === 'payment' ? 'Payment' : 'Credit Note'
          const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType, amount: (s.amount / 100).toFixed(2), transactionDate: on })
          assert.is(r.status, 201, JSON.stringify(r.body))
        }
        if (writeOff) {
          await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: day(d + 1) })
          const balance = (await h.request('GET', `/customers/${c}`)).body.balance
          if (balance > 0) await act(h, `/customers/${c}`, 'writeOffDebt', { dateWriteoff: day(d + 1) })
        }
        const invoices = (await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]
        const payments = (await h.request('GET', `/customers/${c}/transactions?limit=1000&transactionType=Payment`)).body as any[]
        const notes = (await h.request('GET', `/customers/${c}/transactions?limit=1000&transactionType=Credit%20Note`)).body as any[]
        const writtenOff = notes.filter((t) => t.description === 'Debt written off')
        for (const p of payments) assert.is(p.invoiceID, null, 'a payment is on no invoice')
        let paid = 0
        for (const i of invoices) {
          if (i.totalAmount > 0) {
            assert.ok(i.amountPaid >= 0 && i.amountPaid <= i.totalAmount, JSON.stringify(i))
            paid += cents(i.amountPaid)
          }
          assert.is(cents(i.amountOutstanding), Math.max(0, cents(i.totalAmount) - (i.totalAmount > 0 ? cents(i.amountPaid) : cents(i.totalAmount))))
        }
        const held = Number((await h.platform.context.store.receivables.heldCredits([c])).get(c)) / 100
        const credits = invoices.filter((i) => i.totalAmount < 0).reduce((s, i) => s - cents(i.totalAmount), 0)
        const settled = [...payments, ...writtenOff].reduce((s, t) => s - cents(t.amount + t.VATAmount), 0)
        assert.is(paid + held, settled + credits, 'paid + held = payments + credits')
        if (lastCutoff) {
          const before = JSON.stringify(invoices)
          const r = await h.request('POST', '/billingRuns', { cutoffDate: lastCutoff, invoiceDate: lastCutoff, status: 'Requested' })
          const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
          await scheduler.runNow('billing-poll')
          await scheduler.stop()
          assert.is((await h.request('GET', `/billingRuns/${r.body.id}`)).body.invoiceCount, 0)
          assert.is(JSON.stringify((await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body), before, 'a re-run at the same cutoff changes nothing')
        }
      }),
      { numRuns: 12 },
    )
  })

  test.run()
}
