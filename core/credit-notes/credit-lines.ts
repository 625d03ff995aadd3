import { BillingError } from '../errors.js'
import { add, formatAmount, mulRatioRound, round, sub, sum, ZERO, type Money } from '../money/money.js'

/** One line of an invoice as crediting sees it: its net and VAT, and what credit notes have taken of it. */
export interface CreditableLine {
  readonly id: string
  readonly amount: Money
  readonly VATAmount: Money
  readonly VATRate: string | null
  /** Net credited by earlier credit notes, negated as the notes store it (in the sign of `amount`). */
  readonly creditedNet: Money
  /** VAT credited by earlier credit notes, negated as the notes store it (in the sign of `VATAmount`). */
  readonly creditedVat: Money
  /** Net the billing engine has refunded of the line since (`refundedOf`): not credited again. */
  readonly refundedNet?: Money
}

/** What a credit note credits: chosen lines (each whole, or an amount of it), or a net amount spread pro rata. */
export type CreditRequest =
  | { readonly kind: 'lines'; readonly lines: readonly { readonly transactionID: string; readonly amount: Money | null }[] }
  | { readonly kind: 'amount'; readonly amount: Money }

/**
 * One line of a credit note, as what it takes off its invoice line: the note stores them negated.
 * Above zero for a charge; below zero for a discount line, whose credit gives the discount back.
 */
export interface CreditedLine {
  readonly transactionID: string
  readonly net: Money
  readonly vat: Money
  readonly VATRate: string | null
}

const PENNY = 100n

/**
 * What is left to credit of a line: its net less earlier credit notes and what the engine has
 * refunded of it, in the sign of its net (a discount line's is below zero: crediting it gives the
 * discount back, contract 15.3).
 */
export const leftOf = (line: CreditableLine): Money => sub(sub(line.amount, line.creditedNet), line.refundedNet ?? ZERO)

/**
 * What is left to credit of the whole invoice (never below zero): what is left of its lines,
 * negative ones (a discount) included, less the net of debt write-offs that paid it
 * (`writtenOff`). So its credits never take back more than it charged (contract 15.3).
 */
export function leftOfInvoice(lines: readonly CreditableLine[], writtenOff: Money): Money {
  const left = sub(sum(lines.map(leftOf)), writtenOff)
  return left > 0n ? left : ZERO
}

/**
 * The VAT of crediting `net` more of a line: the line's VAT in proportion to its net credited
 * so far, rounded half up to the penny, less the VAT credited already. So its credit notes'
 * VAT adds up to exactly the line's VAT once the whole line is credited, never more, whatever
 * the pieces; and it is the line's own VAT rate applied to what is credited, as a VAT credit note must be.
 */
export function vatOfCredit(line: CreditableLine, net: Money): Money {
  if (line.amount === 0n) return ZERO
  const after = mulRatioRound(line.VATAmount, add(line.creditedNet, net), line.amount, 2)
  return sub(after, line.creditedVat)
}

/** a / b rounded toward minus infinity (b above zero): a share of a discount line rounds down too. */
const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b))

/**
 * Spreads a net amount (whole pence, at most what is left of the lines in all) over every line pro
 * rata by what is left of it (contract 15.3: "pro rata by net"; on an invoice not credited yet,
 * its net), so a discount line takes its share below zero and crediting the whole net reverses
 * every line. Each line takes its exact share rounded down to the penny; the pence this leaves over
 * go one each to the lines whose shares lost the most in rounding down, and on equal losses to the
 * line first on the invoice (lowest transaction ID). So the shares add up to the amount exactly,
 * and none goes beyond what is left of its line, nor to the other side of zero.
 */
export function spreadProRata(lines: readonly CreditableLine[], amount: Money): Money[] {
  const left = lines.map((l) => leftOf(l) / PENNY)
  const total = left.reduce((a, b) => a + b, 0n)
  const pence = amount / PENNY
  if (total <= 0n) return lines.map(() => ZERO)
  const shares = left.map((l) => floorDiv(pence * l, total))
  const lost = left.map((l, i) => ({ i, lost: pence * l - shares[i] * total }))
  let over = pence - shares.reduce((a, b) => a + b, 0n)
  for (const { i } of lost.filter((x) => x.lost > 0n).sort((a, b) => (a.lost > b.lost ? -1 : a.lost < b.lost ? 1 : a.i - b.i))) {
    if (over <= 0n) break
    shares[i] += 1n
    over -= 1n
  }
  return shares.map((s) => (s * PENNY) as Money)
}

const invalid = (message: string, hint: string) => new BillingError('invalid_field', message, hint)
const shown = (m: Money) => formatAmount(round(m, 2))

/**
 * The lines of a credit note for a request against an invoice's lines (in ID order), or the
 * `invalid_field` error naming the field at fault: a line not on the invoice, given twice, or
 * with nothing left; an amount of zero or below, or beyond what is left of its line (of the
 * invoice, for an amount spread pro rata); lines whose net adds up to more than is left of the
 * invoice (`leftOfInvoice`, with `writtenOff` the net its debt write-offs took). Lines that take
 * all the net left of an invoice with a discount not yet given back credit the rest of every line
 * (`creditAllLeft`). Amounts are whole pence (the caller rounds them).
 */
export function creditLinesOf(lines: readonly CreditableLine[], request: CreditRequest, writtenOff: Money = ZERO): CreditedLine[] {
  const out = (line: CreditableLine, net: Money): CreditedLine => ({ transactionID: line.id, net, vat: vatOfCredit(line, net), VATRate: line.VATRate })
  const invoiceLeft = leftOfInvoice(lines, writtenOff)
  if (request.kind === 'amount') {
    if (request.amount <= 0n) throw invalid('Field "amount" of credit note must be above zero', 'Give the net amount to credit, above zero.')
    if (request.amount > invoiceLeft) {
      throw invalid(`Field "amount" of credit note is ${shown(request.amount)}, more than the ${shown(invoiceLeft)} left to credit on the invoice`, `Give at most ${shown(invoiceLeft)}.`)
    }
    const shares = spreadProRata(lines, request.amount)
    return lines.flatMap((line, i) => (shares[i] !== 0n ? [out(line, shares[i])] : []))
  }
  if (request.lines.length === 0) throw invalid('Field "lines" of credit note is empty', 'List at least one line: {"transactionID": "...", "amount": "..."}.')
  const byId = new Map(lines.map((l) => [l.id, l]))
  const seen = new Set<string>()
  const credited = request.lines.map((wanted, i) => {
    const name = `lines[${i}]`
    const line = byId.get(wanted.transactionID)
    if (!line) throw invalid(`Field "${name}.transactionID" (${wanted.transactionID}) is not a line of this invoice`, "Give the ID of one of the invoice's transactions (its transactionIDs).")
    if (seen.has(line.id)) throw invalid(`Field "${name}.transactionID" (${line.id}) is given twice`, 'Credit each line once per credit note.')
    seen.add(line.id)
    const left = leftOf(line)
    const net = wanted.amount ?? left
    if (wanted.amount !== null && wanted.amount <= 0n) throw invalid(`Field "${name}.amount" must be above zero`, 'Give the net amount to credit of this line, or leave it out to credit all that is left.')
    if (line.amount < 0n) {
      throw invalid(`Field "${name}.transactionID": line ${line.id} is below zero (a discount)`, 'Credit it with the lines it discounts: give the net "amount" to spread over all the lines.')
    }
    if (left <= 0n) throw invalid(`Field "${name}.transactionID": line ${line.id} has nothing left to credit`, 'Earlier credit notes, or refunds of its period, have given all of it back.')
    if (net > left) throw invalid(`Field "${name}.amount" is ${shown(net)}, more than the ${shown(left)} left to credit on line ${line.id}`, `Give at most ${shown(left)}.`)
    return out(line, net)
  })
  // Each line within its own amount can still add up to more than the invoice's net (a discount line).
  const total = sum(credited.map((l) => l.net))
  if (total > invoiceLeft) {
    throw invalid(`Field "lines" of credit note credits ${shown(total)} net in all, more than the ${shown(invoiceLeft)} left to credit on the invoice`, `Credit at most ${shown(invoiceLeft)} net in all.`)
  }
  // Taking all the invoice's net that is left (none written off) while a discount line is not given
  // back would leave lines whose nets cancel out but whose VAT does not (a rounding penny, or a
  // discount at another rate): owed, and beyond any later note. So this note credits the rest of
  // every line, as crediting the whole net by amount does: its net is the same, its VAT exact.
  if (writtenOff === 0n && total === invoiceLeft && lines.some((l) => l.amount < 0n && leftOf(l) !== 0n)) return creditAllLeft(lines, credited, out)
  return credited
}

/**
 * The lines of a note that credits all that is left of every line of its invoice: those asked
 * for first, in their order (each whole now), then the others with something left, in ID order.
 */
function creditAllLeft(lines: readonly CreditableLine[], asked: readonly CreditedLine[], out: (line: CreditableLine, net: Money) => CreditedLine): CreditedLine[] {
  const byId = new Map(lines.map((l) => [l.id, l]))
  const named = new Set(asked.map((l) => l.transactionID))
  const first = asked.map((l) => out(byId.get(l.transactionID)!, leftOf(byId.get(l.transactionID)!)))
  return [...first, ...lines.filter((l) => !named.has(l.id) && leftOf(l) !== 0n).map((l) => out(l, leftOf(l)))]
}
