import type { DateOnly } from '../dates/date-only.js'
import type { Money } from '../money/money.js'

/** What a margin report groups by (contract 16.2). */
export const marginGroupings = ['customer', 'carrier', 'featureType', 'callClass', 'month'] as const
export type MarginGrouping = (typeof marginGroupings)[number]

/** A closed range of dates; either end may be open. */
export interface DateRange {
  readonly from: DateOnly | null
  readonly to: DateOnly | null
}

/** Revenue and carrier cost of one group, summed by the database. */
export interface MarginSums {
  /** The group's value (a customer ID, a carrier, `YYYY-MM`, ...); null: rows with none. */
  readonly key: string | null
  /** The currency of the group's customers (`accountCurrency`): a group never adds two currencies. */
  readonly currency: string
  readonly revenue: Money
  readonly cost: Money
}

/** Which documents a journal covers: dated in a range, or those of one billing run. */
export type JournalScope = ({ readonly range: DateRange } | { readonly billingRunID: string }) & {
  /** Only the documents of customers billed in this currency (null or absent: every currency). */
  readonly currency?: string | null
}

export const journalDocumentTypes = ['invoice', 'creditNote', 'payment', 'refund', 'writeOff'] as const
export type JournalDocumentType = (typeof journalDocumentTypes)[number]

/** A document of the journal (an invoice, a credit note, a payment, a refund or a write-off). */
export interface JournalDocument {
  readonly date: DateOnly
  readonly documentType: JournalDocumentType
  /** The invoice's or credit note's number (else its ID), or the payment's transaction ID. */
  readonly document: string
  readonly customerID: string
  /** The customer's `accountingID`, else its account number. */
  readonly account: string | null
  /** The currency the customer is billed in (`accountCurrency`): the document's amounts are in it. */
  readonly currency: string
}

/** One journal line: a document's net and VAT for one account code and VAT rate, summed by the database. */
export interface JournalSums extends JournalDocument {
  readonly accountCode: string
  readonly VATRate: string | null
  readonly net: Money
  readonly VAT: Money
}

/**
 * A page of journal lines, walked in order without an object per line: a run's journal is
 * 400,000 lines, and an object for each (with its strings) cost more than writing the lines out
 * (bench/RESULTS.md, session 32). `line` is called once a line, with the same `document` object
 * for the lines of one document.
 */
export interface JournalPage {
  forEach(line: (document: JournalDocument, accountCode: string, VATRate: string | null, net: Money, VAT: Money) => void): void
}

/**
 * A page of journal lines as the database wrote them in the journal's CSV answer (its lines, in
 * the order and form the HTTP adapter writes a `JournalPage`'s), with their sums: asked for by a
 * CSV answer (`Books.journal`), where making 400,000 lines' values in JavaScript to write them out
 * again was most of a run's journal's time (bench/RESULTS.md, session 33).
 */
export interface JournalCsvPage {
  readonly csv: string
  /** The page's sums, one per currency of its lines. */
  readonly sums: readonly JournalCurrencySums[]
}

/** Net and VAT of journal lines in one currency. */
export interface JournalCurrencySums {
  readonly currency: string
  readonly net: Money
  readonly VAT: Money
}

/** A page of journal lines held as objects (the few of credit notes and payments). */
export const journalPageOf = (lines: readonly JournalSums[]): JournalPage => ({
  forEach(line) {
    for (const l of lines) line(l, l.accountCode, l.VATRate, l.net, l.VAT)
  },
})

/** Where a commission row comes from: a charge on one of the run's invoices, or a credit note line crediting one. */
export type CommissionSource = 'invoice' | 'creditNote'

/** A feature's commission terms (contract 16.3), as stored. */
export interface CommissionTerms {
  readonly commissionHolder: string | null
  readonly connectionChargeCommission: Money | null
  readonly connectionChargeCommissionType: string | null
  readonly serviceChargeCommission: Money | null
  readonly serviceChargeCommissionType: string | null
  readonly commissionHolderID2: string | null
  readonly connectionChargeCommission2: Money | null
  readonly connectionChargeCommissionType2: string | null
  readonly serviceChargeCommission2: Money | null
  readonly serviceChargeCommissionType2: string | null
  readonly connectionChargeCommissionProfile: string | null
  readonly serviceChargeCommissionProfile: string | null
  readonly callChargeCommissionProfile: string | null
  readonly serviceChargeInterval: string | null
  readonly startDate: DateOnly | null
  /**
   * The percentage each profile gave when the terms were kept (null: none, as `None` or a name no
   * longer configured gives), so a later change of the presets reaches no completed run. Null as
   * a whole where none was kept: a run not yet complete, and terms kept before migration 0079
   * (presets are not in the database, so it could not fill them in); those read the presets' by name.
   */
  readonly profilePercents: ProfilePercents | null
}

/** The percentages of a feature's commission profiles, by the term that names each profile. */
export interface ProfilePercents {
  readonly connectionChargeCommissionProfile: Money | null
  readonly serviceChargeCommissionProfile: Money | null
  readonly callChargeCommissionProfile: Money | null
}

/** The profiles' percentages by name (the presets' `commissionProfiles`; null: the profile gives none). */
export type ProfilePercentsByName = Readonly<Record<string, { readonly percent: Money | null }>>

/** A row that may earn commission, with the feature and customer that decide it. */
export interface CommissionRow {
  readonly source: CommissionSource
  /** The row itself (for a credit note, its line). */
  readonly transactionID: string
  /** The charge it is, or credits: `kind` of an engine row, `calls` for call charges. */
  readonly kind: 'connection' | 'recurring' | 'calls'
  readonly transactionType: string
  readonly transactionDate: DateOnly
  /** The charge's (the credited charge's) period. */
  readonly dateFrom: DateOnly | null
  readonly dateTo: DateOnly | null
  /** Net of the row; a credit note line's is negative. */
  readonly amount: Money
  /** A credit note line: the net of the charge it credits. */
  readonly creditedAmount: Money | null
  /** A credit note line: the net earlier credit note lines took of that charge (negative, as they store it; none: zero). */
  readonly creditedBefore?: Money | null
  /**
   * A credit note line on a charge a refund or adjustment refund corrected before it: the latest
   * such (`correction`, with the rows of the period it corrects as `corrects`, each with the credit
   * note lines on it before the correction), and the charge's ID. What they took of the charge is
   * taken back before the line's share (core/reports/commission-lines.ts).
   */
  readonly refundedBefore?: { readonly creditedID: string; readonly correction: CorrectedRow; readonly corrects: readonly CorrectedRow[] }
  readonly customerID: string
  /** The currency the customer is billed in (`accountCurrency`): the row's amounts are in it. */
  readonly currency: string
  readonly accountNumber: string | null
  readonly customerHolder: string | null
  readonly commissionReferenceDate: DateOnly | null
  readonly featureID: string
  readonly saleType: string | null
  readonly terms: CommissionTerms
  /**
   * On a refund or adjustment refund (a `refund` or `adjustment_refund` row, contract 16.3): the
   * rows of its charge's period it corrects, in ledger order (its feature's, kind's and series'
   * rows within its span, invoiced before it). Its clawback is from their holders on their kept
   * terms, never on its own (core/reports/commission-lines.ts); absent on any other row.
   */
  readonly corrects?: readonly CorrectedRow[]
}

/** A row a refund or adjustment refund corrects (`CommissionRow.corrects`). */
export interface CorrectedRow {
  readonly transactionID: string
  readonly transactionType: string
  readonly amount: Money
  /** The credit note lines written on it before the correction, in ledger order: each its ID and net (negative, as they store it). */
  readonly credits?: readonly { readonly transactionID: string; readonly amount: Money }[]
  /** The row with the terms kept when its run completed; null where none were kept (it earned nothing). */
  readonly earning: CommissionRow | null
}

/**
 * What a run's statement carries: the rows on its invoices, and the lines of the credit notes
 * it claimed when it completed (`commissionBillingRunID`, core/billing/commission-credits.ts).
 */
export interface CommissionWindow {
  readonly billingRunID: string
  /** The run completed: its rows come with the terms kept as it did (`Books.keepCommissionTerms`), not the features' now. */
  readonly complete: boolean
}

/**
 * The books' reports (contract 16.2-16.4), summed where the data is: each answer is a few
 * statements of aggregates over indexed columns, read a page at a time.
 */
export interface Books {
  /**
   * Approved revenue and carrier cost by group and currency, in key then currency order, a page at
   * a time (see `MarginSums`); with `currency`, of the customers billed in it only.
   */
  margin(range: DateRange, groupBy: MarginGrouping, currency?: string | null): AsyncIterable<readonly MarginSums[]>
  /**
   * Journal lines by document, account code and VAT rate, in document order, a page at a time;
   * with `csv`, pages may come as their CSV lines (`JournalCsvPage`) where the database writes them.
   */
  journal(scope: JournalScope): AsyncIterable<JournalPage>
  journal(scope: JournalScope, csv: boolean): AsyncIterable<JournalPage | JournalCsvPage>
  /**
   * The rows of a run that may earn `holder` (null: anyone) commission: the feature charges and
   * call charges on the run's final invoices, and the lines of the credit notes the run claimed
   * crediting such charges, of features whose primary holder (the feature's, else its customer's) or
   * secondary holder is `holder`; a call charge once, with the one feature of its number whose
   * call commission profile earns on it (active when its calls start; the later `startDate`, then
   * the higher ID: contract 17.7). A completed run's rows, and every credited row, come with the
   * terms kept when their run completed. In transaction order, a page at a time.
   */
  commissionRows(window: CommissionWindow, holder: string | null): AsyncIterable<readonly CommissionRow[]>
  /**
   * Every commission holder named anywhere (a feature's primary or secondary holder, a
   * customer's), or with a completed run's window those its kept terms name, each once, in the
   * database's text order, a page at a time: a run's statements are read holder by holder, so no
   * answer gathers every holder's lines.
   */
  commissionHolders(window?: CommissionWindow): AsyncIterable<readonly string[]>
  /**
   * Keeps the commission terms of the rows on a run's invoices that may earn (its `commissionRows`
   * with their features' and customers' terms now), in the transaction that completes it: its
   * statement and the clawbacks of its rows are worked out from them from then on (contract 16.3).
   * The percentages of the profiles they name are kept too, from `profiles` (the presets now),
   * which are not in the database.
   */
  keepCommissionTerms(billingRunID: string, profiles: ProfilePercentsByName): Promise<void>
}
