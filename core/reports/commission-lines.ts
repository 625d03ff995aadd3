import { roleOf, transactionTypeNames } from '../billing/ledger-row.js'
import { daysCovered, periodContaining, serviceChargeIntervals, type ServiceChargeInterval } from '../billing/periods.js'
import { add, mulRatioRound, neg, sub, ZERO, type Money } from '../money/money.js'
import type { CommissionRow, ProfilePercents } from '../ports/books.js'
import { profilePercent, type CommissionPresets } from '../presets/commission-profiles.js'

export type CommissionType = 'Fixed Amount' | 'Percentage'

/** One line of a commission statement (contract 16.3). */
export interface CommissionLine {
  readonly holder: string
  readonly role: 'primary' | 'secondary'
  readonly customerID: string
  readonly accountNumber: string | null
  readonly featureID: string
  readonly saleType: string | null
  readonly transactionID: string
  readonly transactionType: string
  /** `creditNote`: a clawback of the commission of the charge it credits. */
  readonly source: CommissionRow['source']
  readonly type: CommissionType
  /** The row's net the commission is worked out on. */
  readonly basis: Money
  /** The percentage, or the fixed amount per charge row (per whole period). */
  readonly rate: Money
  readonly commission: Money
  /** The customer's billing currency: basis and commission are in it. */
  readonly currency: string
}

/**
 * The commission lines a row earns (for `holder` only, when given): its primary holder's (the
 * feature's, else its customer's) and its secondary holder's. None for a period that starts
 * before the customer's `commissionReferenceDate`.
 * - Call charges: the `callChargeCommissionProfile`'s percentage, to the primary holder.
 * - Connection and service charges: the holder's own `...Commission` as its `...CommissionType`
 *   says (`Fixed Amount` when unset); without an amount, the primary holder takes the
 *   `...CommissionProfile`'s percentage.
 * - A profile's percentage is the one kept with the terms when the run completed (the
 *   presets' then); the presets' now only for terms that kept none (`CommissionTerms.profilePercents`).
 * - `Percentage`: of the row's net, so discounts (negative) take theirs back and adjustments
 *   upwards earn theirs; rounded half up to pence per row.
 * - `Fixed Amount`: per charge row, pro-rated like the charge (the days it covers over its
 *   period's); adjustments and discounts earn none.
 * - A credit note line takes back the share of the credited row's commission it credits, as its
 *   VAT is credited (`vatOfCredit`): that commission (worked out as above, from the terms kept
 *   when its run completed) × the row's net credited so far, this line included, ÷ the row's,
 *   rounded half up to pence, less what the earlier lines on the row took back. So a whole
 *   credit, in one note or several, takes back exactly what was earned.
 * - A refund or adjustment refund (a row with `corrects`) takes back from the rows it corrects,
 *   on their holders and kept terms (`correctionLines`), never on its feature's terms at its run.
 */
export function commissionLines(row: CommissionRow, holder: string | null, presets: CommissionPresets): CommissionLine[] {
  if (row.corrects) return correctionLines(row, holder, presets)
  const start = row.dateFrom ?? row.transactionDate
  if (row.commissionReferenceDate && start < row.commissionReferenceDate) return []
  const t = row.terms
  const out: CommissionLine[] = []
  const roles = [
    { role: 'primary' as const, who: t.commissionHolder ?? row.customerHolder },
    { role: 'secondary' as const, who: t.commissionHolderID2 },
  ]
  for (const { role, who } of roles) {
    if (!who || (holder !== null && who !== holder)) continue
    const terms = termsOf(row, role, presets)
    if (!terms) continue
    const commission = row.source === 'creditNote' ? clawbackOf(row, terms) : earnedOn(row, terms)
    if (commission === null) continue
    out.push({
      holder: who,
      role,
      customerID: row.customerID,
      accountNumber: row.accountNumber,
      featureID: row.featureID,
      saleType: row.saleType,
      transactionID: row.transactionID,
      transactionType: row.source === 'creditNote' ? 'Credit Note' : row.transactionType,
      source: row.source,
      type: terms.type,
      basis: row.amount,
      rate: terms.rate,
      commission,
      currency: row.currency,
    })
  }
  return out
}

/** The type and rate a holder earns on a row, or null for none. */
function termsOf(row: CommissionRow, role: 'primary' | 'secondary', presets: CommissionPresets): { type: CommissionType; rate: Money } | null {
  const t = row.terms
  // The percentage kept with the terms, which the presets can no longer change; the presets' by
  // name where none was kept (a run not yet complete, terms kept before migration 0079).
  const percent = (profile: keyof ProfilePercents) => {
    const p = role !== 'primary' ? null : t.profilePercents ? t.profilePercents[profile] : profilePercent(presets, t[profile])
    return p === null ? null : { type: 'Percentage' as const, rate: p }
  }
  if (row.kind === 'calls') return percent('callChargeCommissionProfile')
  const connection = row.kind === 'connection'
  const own = role === 'primary' ? (connection ? t.connectionChargeCommission : t.serviceChargeCommission) : connection ? t.connectionChargeCommission2 : t.serviceChargeCommission2
  const type = role === 'primary' ? (connection ? t.connectionChargeCommissionType : t.serviceChargeCommissionType) : connection ? t.connectionChargeCommissionType2 : t.serviceChargeCommissionType2
  if (own !== null) return { type: type === 'Percentage' ? 'Percentage' : 'Fixed Amount', rate: own }
  return percent(connection ? 'connectionChargeCommissionProfile' : 'serviceChargeCommissionProfile')
}

/** net × percent / 100, exactly and rounded once, half up to pence. */
const percentOf = (net: Money, percent: Money): Money => mulRatioRound(net, percent, 1_000_000n, 2)

/** What a row on an invoice earns on `terms`, or null for none. */
const earnedOn = (row: CommissionRow, terms: { type: CommissionType; rate: Money }): Money | null =>
  terms.type === 'Percentage' ? percentOf(row.amount, terms.rate) : fixedOf(row, terms.rate)

/**
 * A credit note line's clawback: the credited row's commission on `terms` × the row's net credited
 * up to this line (negative) ÷ the row's, exactly and rounded once, less the same up to the line
 * before (`creditedClawback`). Not a percentage of the line, nor of each line alone: a whole
 * credit, in however many pieces, takes back to the penny what the row earned.
 */
function clawbackOf(row: CommissionRow, terms: { type: CommissionType; rate: Money }): Money | null {
  if (row.creditedAmount === null || row.creditedAmount === 0n) return null
  const earned = earnedOn({ ...row, source: 'invoice', amount: row.creditedAmount, creditedAmount: null }, terms)
  if (earned === null) return null
  const before = row.creditedBefore ?? ZERO
  return sub(creditedClawback(earned, add(before, row.amount), row.creditedAmount), creditedClawback(earned, before, row.creditedAmount))
}

/** What credit note lines of `credited` in all (negative) take back of a row of net `net` that earned `earned`. */
const creditedClawback = (earned: Money, credited: Money, net: Money): Money => (net === 0n ? ZERO : mulRatioRound(earned, credited, net, 2))

/** A fixed amount for the row's share of its charge (see `commissionLines`), or null where it earns none. */
function fixedOf(row: CommissionRow, fixed: Money): Money | null {
  const role = roleOf(row.transactionType)
  if (row.transactionType === transactionTypeNames.discount || role === 'adjustment' || role === 'adjustment_refund') return null
  const whole = row.kind === 'connection' ? fixed : proRated(row, fixed)
  if (whole === null) return null
  return role === 'refund' ? neg(whole) : whole
}

/**
 * `fixed` × the days the row covers ÷ the days of its period (the feature's interval from its
 * start date), rounded once to pence as `proRate` rounds the charge. Not `proRate` itself: the
 * period comes from the feature's terms now, which a changed interval can make shorter than an
 * old row, and a statement must not fail on that.
 */
function proRated(row: CommissionRow, fixed: Money): Money | null {
  const { startDate, serviceChargeInterval } = row.terms
  if (!startDate || !row.dateFrom || !row.dateTo) return null
  const interval = (serviceChargeIntervals as readonly string[]).includes(serviceChargeInterval ?? '') ? (serviceChargeInterval as ServiceChargeInterval) : 'Monthly'
  const period = periodContaining({ interval, anchor: startDate }, row.dateFrom)
  if (!period) return null
  return mulRatioRound(fixed, daysCovered(row.dateFrom, row.dateTo), period.days, 2)
}

/**
 * The clawbacks of a refund or adjustment refund (contract 16.3): from each holder of the rows it
 * corrects, on the terms kept when their runs completed, the share of what still stands of their
 * commission that the row takes of their net (its net ÷ the net before it), rounded once to the
 * penny. The rows are walked in ledger order: each charge, discount or adjustment adds what it
 * earned, less what the credit note lines written before the correction took back of it
 * (`clawbackOf`, in all) and their net; each earlier refund or adjustment refund takes its share
 * back as its own statement did. So a refund of the whole net takes back exactly what stands, to
 * the penny: a charge credited or refunded in full has earned nothing in all, whoever holds its
 * feature now. A line per holder and row corrected, with that row's type and rate; its basis is
 * the refund's net.
 */
function correctionLines(row: CommissionRow, holder: string | null, presets: CommissionPresets): CommissionLine[] {
  const standing: { line: CommissionLine; left: Money }[] = []
  let net = 0n as Money
  const takeBack = (amount: Money): Money[] => standing.map((s) => (net === 0n ? (0n as Money) : mulRatioRound(s.left, amount, net, 2)))
  for (const c of row.corrects!) {
    const role = roleOf(c.transactionType)
    if (role === 'refund' || role === 'adjustment_refund') {
      const back = takeBack(c.amount)
      standing.forEach((s, i) => (s.left = add(s.left, back[i])))
    } else if (c.earning) {
      const credited = c.credited ?? ZERO
      for (const line of commissionLines(c.earning, holder, presets)) standing.push({ line, left: add(line.commission, creditedClawback(line.commission, credited, c.amount)) })
    }
    net = add(add(net, c.amount), c.credited ?? ZERO)
  }
  const back = takeBack(row.amount)
  const out: CommissionLine[] = []
  standing.forEach(({ line, left }, i) => {
    // Taken back in full by an earlier refund: nothing of it stands, and no line says so again.
    if (left === 0n && line.commission !== 0n) return
    out.push({ ...line, transactionID: row.transactionID, transactionType: row.transactionType, source: row.source, basis: row.amount, commission: back[i] })
  })
  return out
}
