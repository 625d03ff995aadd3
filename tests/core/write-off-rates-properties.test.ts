import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { allocateAccount } from '../../core/billing/allocation.js'
import { vatFor } from '../../core/billing/vat.js'
import { apportion, splitShare, type RatePart } from '../../core/billing/write-off-rates.js'
import { writtenOffParts } from '../../core/billing/write-offs.js'
import type { DateOnly } from '../../core/dates/date-only.js'
import { mulRatioRound, type Money } from '../../core/money/money.js'
import type { Account, StoredInvoice } from '../../core/ports/receivables.js'

const test = suite('write-offs per VAT rate (properties)')
const pence = (p: number) => (BigInt(p) * 100n) as Money
const total = (parts: readonly RatePart[], key: 'net' | 'vat') => parts.reduce((s, p) => s + p[key], 0n)
/** Contract 17.6's share of one invoice: its outstanding × its VAT ÷ its total, half up to the penny. */
const share = (part: Money, vat: Money, whole: Money) => mulRatioRound(part, vat, whole, 2)
const rates = ['20', '5', '0', '17.5'] as const

// Lines at up to four rates, a discount among them now and then; the invoice's total above zero.
const invoiceLines = fc
  .array(fc.record({ net: fc.integer({ min: -5_000, max: 50_000 }), rate: fc.constantFrom(...rates) }), { minLength: 1, maxLength: 6 })
  .map((ls) => ls.map((l) => ({ VATRate: l.rate, net: pence(l.net), vat: vatFor(pence(l.net), l.rate) })))
  .filter((ls) => total(ls, 'net') + total(ls, 'vat') > 0n)

test('apportion: parts add up to the target exactly, each within a step of its exact share', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -1_000_000_000n, max: 1_000_000_000n }), fc.array(fc.bigInt({ min: -1_000_000n, max: 1_000_000n }), { minLength: 1, maxLength: 6 }), (target, weights) => {
      const whole = weights.reduce((a, b) => a + b, 0n)
      fc.pre(whole !== 0n)
      const parts = apportion(target, weights)
      assert.is(parts.reduce((a, b) => a + b, 0n), target)
      parts.forEach((p, i) => {
        const off = p * whole - target * weights[i]
        assert.ok((off < 0n ? -off : off) < 100n * (whole < 0n ? -whole : whole), `part ${i} within a penny of its share`)
      })
      assert.equal(apportion(target, weights), parts, 'the same split every time')
    }),
  )
})

test("splitShare: an invoice's rates carry exactly the per-invoice formula's VAT and net, in whole pence", () => {
  fc.assert(
    fc.property(invoiceLines, fc.double({ min: 0.0001, max: 1, noNaN: true }), (lines, fraction) => {
      const whole = (total(lines, 'net') + total(lines, 'vat')) as Money
      const part = (BigInt(Math.max(1, Math.floor(Number(whole / 100n) * fraction))) * 100n) as Money
      const vat = share(part, total(lines, 'vat') as Money, whole)
      const split = splitShare(part, vat, lines)
      assert.is(total(split, 'vat'), vat)
      assert.is(total(split, 'net'), part - vat)
      assert.ok(split.every((p) => p.net % 100n === 0n && p.vat % 100n === 0n))
      assert.is(new Set(split.map((p) => p.VATRate)).size, split.length, 'one part per rate')
    }),
  )
})

test('writtenOffParts of a debt: the rows sum to the balance, their VAT to each invoice’s share of 17.6 summed', () => {
  fc.assert(
    fc.property(fc.array(invoiceLines, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 200_000 }), (invoices, paidPence) => {
      const stored: StoredInvoice[] = invoices.map((ls, i) => ({
        id: String(i + 1),
        invoiceDate: '2026-01-01' as DateOnly,
        dueDate: '2026-01-15' as DateOnly,
        overdueDate: '2026-01-15' as DateOnly,
        totalAmount: (total(ls, 'net') + total(ls, 'vat')) as Money,
        VATAmount: total(ls, 'vat') as Money,
        amountPaid: 0n as Money,
        paidDate: null,
        status: null,
      }))
      const owed = stored.reduce((s, i) => s + i.totalAmount, 0n)
      const paid = pence(paidPence) < owed ? pence(paidPence) : ((owed - 100n) as Money)
      fc.pre(paid >= 0n)
      const account: Account = { invoices: stored, settlements: paid > 0n ? [{ kind: 'transaction', id: '1', date: '2026-01-10' as DateOnly, amount: paid }] : [], allocations: [] }
      const allocation = allocateAccount(account.invoices, account.settlements, '2026-02-01' as DateOnly)
      const balance = { total: (owed - paid) as Money, vat: stored.reduce((s, i) => s + i.VATAmount!, 0n) as Money }
      const lines = { invoices: new Map(invoices.map((ls, i) => [String(i + 1), ls])), settlements: new Map(), uninvoiced: [] }
      const parts = writtenOffParts('debt', allocation, account, balance, lines)
      const expected = stored.reduce((s, i) => s + share(allocation.invoices.get(i.id)!.amountOutstanding, i.VATAmount!, i.totalAmount), 0n)
      assert.is(total(parts, 'vat'), expected)
      assert.is(total(parts, 'net'), balance.total - expected)
    }),
  )
})

// Credits not invoiced yet (a drop's refunds), at the invoices' rates: each line below zero.
const pendingCredits = fc
  .array(fc.record({ net: fc.integer({ min: 1, max: 30_000 }), rate: fc.constantFrom(...rates) }), { minLength: 1, maxLength: 3 })
  .map((ls) => ls.map((l) => ({ VATRate: l.rate, net: pence(-l.net), vat: vatFor(pence(-l.net), l.rate) })))

test('writtenOffParts of a debt with credits not invoiced yet: VAT never beyond what is outstanding, net + VAT the balance', () => {
  fc.assert(
    fc.property(invoiceLines, fc.integer({ min: 0, max: 200_000 }), pendingCredits, (lines, paidPence, credits) => {
      const invoice: StoredInvoice = {
        id: '1',
        invoiceDate: '2026-01-01' as DateOnly,
        dueDate: '2026-01-15' as DateOnly,
        overdueDate: '2026-01-15' as DateOnly,
        totalAmount: (total(lines, 'net') + total(lines, 'vat')) as Money,
        VATAmount: total(lines, 'vat') as Money,
        amountPaid: 0n as Money,
        paidDate: null,
        status: null,
      }
      const paid = pence(paidPence) < invoice.totalAmount ? pence(paidPence) : (0n as Money)
      const pending = { net: total(credits, 'net'), vat: total(credits, 'vat') }
      const balance = { total: (invoice.totalAmount - paid + pending.net + pending.vat) as Money, vat: (invoice.VATAmount! + pending.vat) as Money }
      fc.pre(balance.total > 0n)
      const account: Account = { invoices: [invoice], settlements: paid > 0n ? [{ kind: 'transaction', id: '1', date: '2026-01-10' as DateOnly, amount: paid }] : [], allocations: [] }
      const allocation = allocateAccount(account.invoices, account.settlements, '2026-02-01' as DateOnly)
      const parts = writtenOffParts('debt', allocation, account, balance, { invoices: new Map([['1', lines]]), settlements: new Map(), uninvoiced: credits })
      // What is outstanding: the invoice's 17.6 share, less the VAT the credits will give back.
      const outstanding = share(allocation.invoices.get('1')!.amountOutstanding, invoice.VATAmount!, invoice.totalAmount) + pending.vat
      assert.ok(total(parts, 'vat') <= outstanding, `VAT ${total(parts, 'vat')} beyond the ${outstanding} outstanding`)
      assert.is(total(parts, 'vat'), outstanding)
      assert.is(total(parts, 'net') + total(parts, 'vat'), balance.total)
      assert.is(new Set(parts.map((p) => p.VATRate)).size, parts.length, 'one row per rate')
    }),
  )
})

test.run()
