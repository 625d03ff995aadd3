import type { BillStyle } from '../../core/presets/engine-lists.js'

/**
 * How a bill style lays a document out (contract 10.5: a style changes layout, not content).
 * Both renderers read the same layout, so a style looks alike in PDF and HTML.
 */
export interface BillLayout {
  /** Headings, rules and the letterhead. */
  readonly accent: string
  /** Body text size in points. */
  readonly fontSize: number
  /** Shade every other row. */
  readonly zebra: boolean
  /** Which bill pages start a new sheet: every one after the first, only the itemised calls, or none. */
  readonly sheetBreaks: 'every' | 'itemised' | 'none'
  /** `band`: a full-width coloured letterhead with the title in white; `rule`: title over a rule. */
  readonly letterhead: 'band' | 'rule'
  /** Light rules between rows. */
  readonly rowRules: boolean
}

/** Whether a bill page starts a new sheet in this layout (never the first: it follows the totals). */
export const breaksBefore = (layout: BillLayout, page: string, index: number): boolean =>
  index > 0 && (layout.sheetBreaks === 'every' || (layout.sheetBreaks === 'itemised' && page === 'Itemised Calls'))

export const billLayouts: Readonly<Record<BillStyle, BillLayout>> = {
  Standard: { accent: '#1f4e79', fontSize: 9, zebra: false, sheetBreaks: 'itemised', letterhead: 'rule', rowRules: true },
  Detailed: { accent: '#2f6b3a', fontSize: 8, zebra: true, sheetBreaks: 'every', letterhead: 'rule', rowRules: true },
  Summary: { accent: '#444444', fontSize: 8.5, zebra: false, sheetBreaks: 'none', letterhead: 'rule', rowRules: false },
  Corporate: { accent: '#0b2545', fontSize: 9, zebra: true, sheetBreaks: 'every', letterhead: 'band', rowRules: false },
}

/** Shade of zebra rows and boxes. */
export const SHADE = '#f1f3f6'
/** Rules between rows. */
export const RULE = '#d5d9e0'
