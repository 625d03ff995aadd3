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
  readonly revenue: Money
  readonly cost: Money
}

/** Which documents a journal covers: dated in a range, or those of one billing run. */
export type JournalScope = { readonly range: DateRange } | { readonly billingRunID: string }

export const journalDocumentTypes = ['invoice', 'creditNote', 'payment', 'refund', 'writeOff'] as const
export type JournalDocumentType = (typeof journalDocumentTypes)[number]

/** One journal line: a document's net and VAT for one account code and VAT rate, summed by the database. */
export interface JournalSums {
  readonly date: DateOnly
  readonly documentType: JournalDocumentType
  /** The invoice's or credit note's number (else its ID), or the payment's transaction ID. */
  readonly document: string
  readonly customerID: string
  /** The customer's `accountingID`, else its account number. */
  readonly account: string | null
  readonly accountCode: string
  readonly VATRate: string | null
  readonly net: Money
  readonly VAT: Money
}

/**
 * The books' reports (contract 16.2-16.4), summed where the data is: each answer is a few
 * statements of aggregates over indexed columns, read a page at a time.
 */
export interface Books {
  /** Approved revenue and carrier cost by group, in key order, a page at a time (see `MarginSums`). */
  margin(range: DateRange, groupBy: MarginGrouping): AsyncIterable<readonly MarginSums[]>
  /** Journal lines by document, account code and VAT rate, in document order, a page at a time. */
  journal(scope: JournalScope): AsyncIterable<readonly JournalSums[]>
}
