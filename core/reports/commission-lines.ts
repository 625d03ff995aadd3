import { roleOf, transactionTypeNames } from '../billing/ledger-row.js'
import { daysCovered, periodContaining, serviceChargeIntervals, type ServiceChargeInterval } from '../billing/periods.js'
import { add, mulRatioRound, neg, sub, sum, ZERO, type Money } from '../money/money.js'
import type { CommissionRow, ProfilePercents } from '../ports/books.js'
import { profilePercent, type CommissionPresets } from '../presets/commission-profiles.js'
import { givenBack, NONE, plus, refundShares, replayed, asRatio, type Ratio } from './taken-back.js'

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
 * - A credit note line, refund or adjustment refund takes back of a row's commission as credit
 *   note VAT is credited (`vatOfCredit`): that commission (worked out as above, from the terms
 *   kept when its run completed) × the row's net taken back so far, by credit note lines and
 *   refunds in ledger order, this one included, ÷ the row's net, rounded half up to pence, less
 *   the same before it (`givenBack`). So a row credited and refunded in full, in any pieces and
 *   any order, gives back exactly what it earned.
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
 * A credit note line's clawback: `givenBack` of the credited row's commission on `terms` with the
 * line's net taken too, less without it. Not a percentage of the line, nor of each line alone: a
 * whole credit, in however many pieces and among refunds, takes back to the penny what the row earned.
 */
function clawbackOf(row: CommissionRow, terms: { type: CommissionType; rate: Money }): Money | null {
  if (row.creditedAmount === null || row.creditedAmount === 0n) return null
  const earned = earnedOn({ ...row, source: 'invoice', amount: row.creditedAmount, creditedAmount: null }, terms)
  if (earned === null) return null
  const before = takenBefore(row)
  return sub(givenBack(earned, plus(before, asRatio(row.amount)), row.creditedAmount), givenBack(earned, before, row.creditedAmount))
}

/**
 * The net taken back of a credit note line's charge before it: the earlier lines on it, and, after
 * a refund or adjustment refund of its period (`refundedBefore`), what the period's replay in
 * ledger order (`replayed`) leaves taken of it then, with the lines on it written since.
 */
function takenBefore(row: CommissionRow): Ratio {
  const credited = row.creditedBefore ?? ZERO
  const r = row.refundedBefore
  const standing = r ? replayed([...r.corrects, r.correction]).get(r.creditedID) : undefined
  if (!r || !standing) return asRatio(credited)
  const then = sum((standing.row.credits ?? []).map((c) => c.amount))
  return plus(standing.taken, asRatio(sub(credited, then)))
}

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
 * corrects, on the terms kept when their runs completed, `givenBack` of their commission with the
 * refund's share of their net taken (`refundShares`: of what stands of each, pro rata), less
 * without it. The rows and the credit note lines on them before it are replayed in ledger order
 * (`replayed`), each earlier refund taking its share as its own statement did. So a refund of the
 * whole net takes back exactly what stands, to the penny: a charge credited or refunded in full
 * has earned nothing in all, whoever holds its feature now. A line per holder and row corrected,
 * with that row's type and rate; its basis is the refund's net.
 */
function correctionLines(row: CommissionRow, holder: string | null, presets: CommissionPresets): CommissionLine[] {
  const standing = replayed(row.corrects!)
  const shares = refundShares(standing, row.amount)
  const out: CommissionLine[] = []
  for (const [id, { row: corrected, taken }] of standing) {
    if (!corrected.earning) continue
    const after = plus(taken, shares.get(id) ?? NONE)
    for (const line of commissionLines(corrected.earning, holder, presets)) {
      const before = givenBack(line.commission, taken, corrected.amount)
      // Taken back in full already: nothing of it stands, and no line says so again.
      if (line.commission !== 0n && add(line.commission, before) === 0n) continue
      const commission = sub(givenBack(line.commission, after, corrected.amount), before)
      out.push({ ...line, transactionID: row.transactionID, transactionType: row.transactionType, source: row.source, basis: row.amount, commission })
    }
  }
  return out
}
