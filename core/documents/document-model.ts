import type { Money } from '../money/money.js'
import type { BillPage, BillStyle } from '../presets/engine-lists.js'
import type { GroupBy, Orientation } from './bill-format.js'
import type { SellerBlock } from './seller-block.js'

/**
 * An invoice document as both renderers draw it (contract 10.5): every figure already worked
 * out and written as text, so the PDF and the HTML page show the same content by construction
 * and differ only in layout.
 */
export interface InvoiceDocument {
  readonly style: BillStyle
  /** Which way up the sheets are (the customer's `billFormatOverride`, bill-format.ts). */
  readonly orientation: Orientation
  /** What the document is, as its letterhead names it: "Invoice", or "Credit note" (contract 15.3). */
  readonly heading: string
  /** "Invoice INV-000042". */
  readonly title: string
  /** Who issues it (contract 14.1), above the bill-to block. */
  readonly seller: SellerBlock
  /** The bill-to block, one line each: name, department, address lines, postcode. */
  readonly billTo: readonly string[]
  /** Invoice number, dates and the customer's references, as label and value. */
  readonly details: readonly DocumentDetail[]
  /** Net, VAT, total, paid and outstanding; each row keyed by the invoice's JSON field name. */
  readonly totals: DocumentTable
  /** Net and VAT by VAT rate. */
  readonly vatByRate: DocumentTable
  /** The invoice message's text, or null. */
  readonly message: string | null
  /** The pages asked for, in the order of the `billPages` list. */
  readonly sections: readonly DocumentSection[]
  /** Marks the document when it is not to be sent (a suppressed low invoice) or is already paid. */
  readonly notices: readonly string[]
}

export interface DocumentDetail {
  readonly label: string
  readonly value: string
}

/** One bill page: its tables, or a note when it has nothing to show. */
export interface DocumentSection {
  readonly page: BillPage
  readonly title: string
  /** Its tables; when the page is grouped, every group's tables in order. */
  readonly tables: readonly DocumentTable[]
  readonly note: string | null
  /** Set when the customer's override groups the page (bill-format.ts): renderers draw these instead of `tables`. */
  readonly grouping?: DocumentGrouping
}

/** A page's lines under a heading per site or cost centre, each with its subtotal, then the page's total. */
export interface DocumentGrouping {
  readonly by: GroupBy
  readonly groups: readonly DocumentGroup[]
  /** The page's count and total, a one-row table drawn after the groups. */
  readonly total: DocumentTable
  /** The page's total, exact (the sum of the groups' `amount`s). */
  readonly amount: Money
}

export interface DocumentGroup {
  /** "Site Leeds", "No site", "Cost centre Head office", "Unassigned". */
  readonly heading: string
  readonly tables: readonly DocumentTable[]
  /** The group's count and subtotal, a one-row table drawn after its tables. */
  readonly subtotal: DocumentTable
  /** The group's subtotal, exact, for machines (tests add the groups up). */
  readonly amount: Money
}

export interface DocumentColumn {
  readonly label: string
  readonly align: 'left' | 'right'
  /** Relative width: a renderer shares its line's width out in proportion. */
  readonly width: number
}

/** One row: a cell per column; `key` names it for machines (tests read totals back by it). */
export interface DocumentRow {
  readonly cells: readonly string[]
  readonly key?: string
}

export interface DocumentTable {
  /** The group the table shows ("020 7946 0018", "Account charges"), or null. */
  readonly caption: string | null
  readonly columns: readonly DocumentColumn[]
  readonly rows: readonly DocumentRow[]
  /** A subtotal or total row, drawn emphasised, or null. */
  readonly footer: DocumentRow | null
}
