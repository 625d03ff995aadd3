import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { creditLinesOf, leftOf, spreadProRata, type CreditableLine, type CreditRequest } from '../../core/credit-notes/credit-lines.js'
import { isBillingError } from '../../core/errors.js'
import type { Money } from '../../core/money/money.js'
import { vatFor } from '../../core/billing/vat.js'

const test = suite('credit note lines (properties)')
const pence = (p: number) => (BigInt(p) * 100n) as Money
/** `x` lies between zero and `bound`, whichever side of zero `bound` is. */
const within = (x: bigint, bound: bigint) => (bound >= 0n ? x >= 0n && x <= bound : x <= 0n && x >= bound)
const invoiceOf = (spec: readonly { net: number; rate: string }[]): CreditableLine[] =>
  spec.map((l, i) => ({ id: String(i + 1), amount: pence(l.net), VATAmount: vatFor(pence(l.net), l.rate), VATRate: l.rate, creditedNet: 0n as Money, creditedVat: 0n as Money }))
/** The lines after a credit note's lines are taken off them. */
const afterNote = (lines: readonly CreditableLine[], credited: readonly { transactionID: string; net: Money; vat: Money }[]): CreditableLine[] =>
  lines.map((l) => {
    const mine = credited.filter((c) => c.transactionID === l.id)
    return { ...l, creditedNet: (l.creditedNet + mine.reduce((s, c) => s + c.net, 0n)) as Money, creditedVat: (l.creditedVat + mine.reduce((s, c) => s + c.vat, 0n)) as Money }
  })
const rates = ['20', '5', '0', '17.5'] as const

// Negative lines (discounts) as large as the charges, so the invoice's own net is often the cap.
const invoiceLines = fc.array(fc.record({ net: fc.integer({ min: -30_000, max: 50_000 }), rate: fc.constantFrom(...rates) }), { minLength: 1, maxLength: 6 })
/** The net a debt write-off took of the invoice, in pence: often none. */
const writtenOffNet = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40_000 }))
const request = (n: number) =>
  fc.oneof(
    fc.record({ kind: fc.constant('amount' as const), amount: fc.integer({ min: -100, max: 60_000 }) }),
    fc.record({
      kind: fc.constant('lines' as const),
      lines: fc.array(fc.record({ line: fc.integer({ min: 0, max: n - 1 }), amount: fc.option(fc.integer({ min: -100, max: 50_000 })) }), { minLength: 1, maxLength: 4 }),
    }),
  )

test('credited never exceeds invoiced, per line, net and VAT, nor the invoice net less its write-offs; a refused request changes nothing; a whole line credits its VAT exactly', () => {
  fc.assert(
    fc.property(
      invoiceLines.chain((ls) => fc.tuple(fc.constant(ls), fc.array(request(ls.length), { maxLength: 8 }), writtenOffNet)),
      ([spec, requests, writtenOff]) => {
        let lines = invoiceOf(spec)
        for (const r of requests) {
          const req: CreditRequest =
            r.kind === 'amount'
              ? { kind: 'amount', amount: pence(r.amount) }
              : { kind: 'lines', lines: r.lines.map((l) => ({ transactionID: String(l.line + 1), amount: l.amount === null ? null : pence(l.amount) })) }
          let credited
          try {
            credited = creditLinesOf(lines, req, pence(writtenOff))
          } catch (e) {
            assert.ok(isBillingError(e) && e.code === 'invalid_field', String(e))
            continue
          }
          if (req.kind === 'amount') assert.is(credited.reduce((s, l) => s + l.net, 0n), req.amount, 'pro-rata shares add up to the amount exactly')
          lines = afterNote(lines, credited)
          for (const c of credited) {
            // A charge is credited above zero; a discount line only with the others, by amount, below zero.
            const line = spec[Number(c.transactionID) - 1]
            // (By lines too when the note takes all the net left: it gives the discount back, creditAllLeft.)
            assert.ok(line.net > 0 ? c.net > 0n && c.vat >= 0n : c.net < 0n && c.vat <= 0n, JSON.stringify(String(c.net)))
            if (line.net < 0 && req.kind === 'lines') assert.is(lines.reduce((s, l) => s + l.amount - l.creditedNet, 0n), 0n, 'a discount by lines only with the last of the net')
          }
        }
        for (const l of lines) {
          assert.ok(within(l.creditedNet, l.amount), 'net credited between zero and invoiced')
          assert.ok(within(l.creditedVat, l.VATAmount), 'VAT credited between zero and invoiced')
          if (l.amount !== 0n && l.creditedNet === l.amount) assert.is(l.creditedVat, l.VATAmount, 'a line credited whole has its VAT credited exactly')
        }
        const net = spec.reduce((s, l) => s + l.net, 0) - writtenOff
        assert.ok(lines.reduce((s, l) => s + l.creditedNet, 0n) <= pence(Math.max(net, 0)), "net credited ≤ the invoice's net less its write-offs")
      },
    ),
    { numRuns: 300 },
  )
})

test('the whole net credited by amount, in one note or several, reverses every line exactly, discount lines included; no note takes more than is left', () => {
  fc.assert(
    fc.property(
      invoiceLines.filter((ls) => ls.reduce((s, l) => s + l.net, 0) > 0),
      fc.array(fc.integer({ min: 1, max: 1_000 }), { minLength: 1, maxLength: 5 }),
      (spec, weights) => {
        let lines = invoiceOf(spec)
        const net = spec.reduce((s, l) => s + l.net, 0)
        // The net cut into notes by the weights (each at least a penny); the last takes what is left.
        const cuts = weights.map((w) => Math.max(1, Math.floor((net * w) / weights.reduce((a, b) => a + b, 0))))
        let given = 0
        for (const [i, cut] of cuts.entries()) {
          const amount = i === cuts.length - 1 ? net - given : Math.min(cut, net - given - (cuts.length - 1 - i))
          if (amount <= 0) continue
          given += amount
          const credited = creditLinesOf(lines, { kind: 'amount', amount: pence(amount) })
          assert.is(credited.reduce((s, l) => s + l.net, 0n), pence(amount))
          for (const c of credited) {
            const line = lines.find((l) => l.id === c.transactionID)!
            assert.ok(within(c.net, line.amount - line.creditedNet), 'a share within what is left of its line')
            assert.ok(within(c.vat, line.VATAmount - line.creditedVat), "a share's VAT within what is left of its line's")
          }
          lines = afterNote(lines, credited)
        }
        assert.is(given, net)
        for (const l of lines) assert.equal([l.creditedNet, l.creditedVat], [l.amount, l.VATAmount], `line ${l.id} reversed exactly`)
        // Nothing is left to credit, by amount or by lines.
        assert.throws(() => creditLinesOf(lines, { kind: 'amount', amount: pence(1) }), (e: unknown) => isBillingError(e) && e.code === 'invalid_field')
      },
    ),
    { numRuns: 400 },
  )
  // 45.00 of a 50.00 charge and its -5.00 discount at 20%: -50.00/-10.00 and +5.00/+1.00 (stored negated).
  const whole = creditLinesOf(invoiceOf([{ net: 5000, rate: '20' }, { net: -500, rate: '20' }]), { kind: 'amount', amount: pence(4500) })
  assert.equal(whole.map((l) => [l.transactionID, l.net, l.vat]), [['1', pence(5000), pence(1000)], ['2', pence(-500), pence(-100)]])
})

test('lines that take the last of the net of an invoice with a discount (none written off) reverse every line exactly: no VAT is left that no note can take', () => {
  const reversed = (lines: readonly CreditableLine[]) => lines.every((l) => l.creditedNet === l.amount && l.creditedVat === l.VATAmount)
  fc.assert(
    fc.property(
      invoiceLines.filter((ls) => ls.some((l) => l.net < 0) && ls.reduce((s, l) => s + l.net, 0) > 0),
      fc.array(fc.record({ line: fc.nat(), part: fc.integer({ min: 1, max: 100 }) }), { maxLength: 4 }),
      (spec, parts) => {
        let lines = invoiceOf(spec)
        const charges = lines.filter((l) => l.amount > 0n)
        const netLeft = () => lines.reduce((s, l) => s + l.amount - l.creditedNet, 0n)
        // Some notes by lines first: a part of a charge, within what the invoice has left.
        for (const { line, part } of parts) {
          const l = lines.find((x) => x.id === charges[line % charges.length].id)!
          const most = [leftOf(l), netLeft()].reduce((a, b) => (b < a ? b : a))
          const net = ((most / 100n) * BigInt(part)) / 100n * 100n
          if (net <= 0n) continue
          lines = afterNote(lines, creditLinesOf(lines, { kind: 'lines', lines: [{ transactionID: l.id, amount: net as Money }] }))
        }
        // Then the last of the net by lines: the charges in order, each as much as is still wanted.
        let want = netLeft()
        const last: { transactionID: string; amount: Money }[] = []
        for (const l of lines.filter((x) => x.amount > 0n)) {
          const take = leftOf(l) < want ? leftOf(l) : want
          if (take > 0n) last.push({ transactionID: l.id, amount: take as Money })
          want -= take
        }
        // (A note of the first ones may have taken the last of the net already.)
        if (last.length > 0) {
          const credited = creditLinesOf(lines, { kind: 'lines', lines: last })
          assert.is(credited.reduce((s, l) => s + l.net, 0n), last.reduce((s, l) => s + l.amount, 0n), "the note's net is what was asked")
          lines = afterNote(lines, credited)
        }
        assert.ok(reversed(lines), 'every line reversed exactly, net and VAT')
        assert.throws(() => creditLinesOf(lines, { kind: 'amount', amount: pence(1) }), (e: unknown) => isBillingError(e) && e.code === 'invalid_field')
      },
    ),
    { numRuns: 300 },
  )
  // 10.03 at 20% (VAT 2.01) and 5.02 off (-1.00): 5.01 of the charge by lines would leave a penny of VAT.
  const penny = creditLinesOf(invoiceOf([{ net: 1003, rate: '20' }, { net: -502, rate: '20' }]), { kind: 'lines', lines: [{ transactionID: '1', amount: pence(501) }] })
  assert.equal(penny.map((l) => [l.transactionID, l.net, l.vat]), [['1', pence(1003), pence(201)], ['2', pence(-502), pence(-100)]])
})

test("spreadProRata: whole pence, no share beyond what is left of its line (a discount line's below zero), sum exact; the leftover pence go to the largest losses, first line on ties", () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -40_000, max: 100_000 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 1_000_000 }), (lefts, want) => {
      const lines = lefts.map((p, i) => ({ id: String(i + 1), amount: pence(p), VATAmount: 0n as Money, VATRate: null, creditedNet: 0n as Money, creditedVat: 0n as Money }))
      const total = lefts.reduce((a, b) => a + b, 0)
      fc.pre(total > 0)
      const amount = pence(Math.min(want, total))
      const shares = spreadProRata(lines, amount)
      assert.is(shares.reduce((a, b) => a + b, 0n), amount)
      shares.forEach((s, i) => {
        assert.is(s % 100n, 0n)
        assert.ok(within(s, leftOf(lines[i])))
        // Each share is its exact share rounded down (toward minus infinity), or one penny more.
        const exact = BigInt(lefts[i]) * (amount / 100n)
        const floor = exact / BigInt(total) - (exact < 0n && exact % BigInt(total) !== 0n ? 1n : 0n)
        assert.ok(s / 100n === floor || s / 100n === floor + 1n)
      })
    }),
    { numRuns: 500 },
  )
  // Three equal lines and 10.00: 3.33 each and one penny over, to the first line.
  const equal = [1, 2, 3].map((i) => ({ id: String(i), amount: pence(1000), VATAmount: 0n as Money, VATRate: null, creditedNet: 0n as Money, creditedVat: 0n as Money }))
  assert.equal(spreadProRata(equal, pence(1000)), [pence(334), pence(333), pence(333)])
})

test.run()
