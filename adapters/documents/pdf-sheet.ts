import type PDFDocument from 'pdfkit'
import type { Orientation } from '../../core/documents/bill-format.js'
import type { BillLayout } from './bill-layouts.js'

export type Pdf = InstanceType<typeof PDFDocument>

/** A sheet in points: its size, the margin it keeps, where its body ends (the footer sits below), and the body's width. */
export interface PageGeometry {
  readonly orientation: Orientation
  readonly width: number
  readonly height: number
  readonly margin: number
  readonly bottom: number
  readonly contentWidth: number
}

const A4 = { short: 595.28, long: 841.89 } as const
const MARGIN = 40

function geometry(orientation: Orientation): PageGeometry {
  const [width, height] = orientation === 'landscape' ? [A4.long, A4.short] : [A4.short, A4.long]
  return { orientation, width, height, margin: MARGIN, bottom: height - 52, contentWidth: width - 2 * MARGIN }
}

/** A4 portrait and landscape (a customer's `billFormatOverride`, core/documents/bill-format.ts). */
export const PAGES: Readonly<Record<Orientation, PageGeometry>> = { portrait: geometry('portrait'), landscape: geometry('landscape') }

export type FontName = 'regular' | 'bold'

/**
 * The pen of a PDF invoice: where the next line goes, and text that never spills: a piece is
 * either one line cut with an ellipsis to its width (`cell`, for what may be shortened), or
 * wrapped onto as many lines as it needs (`wrap`, for what must be shown whole), measured first
 * so that the renderer moves to a new sheet before a row that would not fit: no row breaks
 * across sheets.
 */
export class PdfSheet {
  y: number
  /** Text widths by font and size, then text; `fontWidths` is the current font's. */
  private readonly widths = new Map<string, Map<string, number>>()
  private fontWidths = new Map<string, number>()
  private font: FontName = 'regular'
  private size = 0

  constructor(
    readonly pdf: Pdf,
    readonly layout: BillLayout,
    readonly page: PageGeometry,
  ) {
    this.y = page.margin
  }

  /** Starts a new sheet, of this document's size and orientation, at its top margin. */
  newPage(): void {
    this.pdf.addPage({ size: 'A4', layout: this.page.orientation, margin: 0 })
    this.y = this.page.margin
  }

  /** Moves to a new sheet unless `height` more points fit on this one. */
  ensure(height: number): boolean {
    if (this.y + height <= this.page.bottom) return false
    this.newPage()
    return true
  }

  use(font: FontName, size: number, color = '#1a1a1a'): void {
    if (font !== this.font || size !== this.size) {
      this.pdf.font(font).fontSize(size)
      this.font = font
      this.size = size
      const key = `${font}${size}`
      let widths = this.widths.get(key)
      if (!widths) this.widths.set(key, (widths = new Map()))
      this.fontWidths = widths
    }
    this.pdf.fillColor(color)
  }

  /** Width of text in the current font, measured once per font, size and text (rows repeat dates and types). */
  width(text: string): number {
    let w = this.fontWidths.get(text)
    if (w === undefined) {
      w = this.pdf.widthOfString(text)
      this.fontWidths.set(text, w)
    }
    return w
  }

  /** The text as it fits `width`: whole, or cut with an ellipsis. */
  fit(text: string, width: number): string {
    if (this.width(text) <= width) return text
    let lo = 0
    let hi = text.length
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.width(`${text.slice(0, mid)}…`) <= width) lo = mid
      else hi = mid - 1
    }
    return `${text.slice(0, lo)}…`
  }

  /** One line of text in a box from `x`, `width` wide, aligned left or right, at the current line. */
  cell(text: string, x: number, width: number, align: 'left' | 'right' = 'left', y = this.y): void {
    if (!text) return
    const shown = this.fit(text, width)
    const at = align === 'right' ? x + width - this.width(shown) : x
    this.pdf.text(shown, at, y, { lineBreak: false })
  }

  /**
   * How many lines `text` takes wrapped to `width` in the current font, `step` apart: one when
   * it fits (measured once, as `width` is), else as pdfkit's line wrapper breaks it (between
   * words, a word longer than the line cut where it must).
   */
  linesOf(text: string, width: number, step: number): number {
    if (this.width(text) <= width) return 1
    return Math.max(1, Math.round(this.pdf.heightOfString(text, { width, lineGap: this.gap(step) }) / step))
  }

  /**
   * Text that must be shown whole (names, addresses, references: contract 10.5, 14.1) in a box
   * from `x`, `width` wide, from the line at `y`: one line as `cell` draws it when it fits, else
   * wrapped onto more lines `step` apart, never cut. Answers the number of lines (`linesOf`).
   * A table cell passes `most`, the lines its row may take on one sheet: text longer than that
   * keeps `most` lines, the last ending in an ellipsis. pdfkit is given the height of the lines
   * it draws, so it never moves to a new page by itself.
   */
  wrap(text: string, x: number, width: number, step: number, align: 'left' | 'right' = 'left', y = this.y, most = Infinity): number {
    const all = this.linesOf(text, width, step)
    const lines = Math.max(1, Math.min(all, most))
    if (lines === 1) this.cell(text, x, width, align, y)
    else this.pdf.text(text, x, y, { width, align, lineGap: this.gap(step), height: this.heightOf(lines, step), ellipsis: lines < all })
    return lines
  }

  /**
   * The height that holds `lines` lines `step` apart and not one more: pdfkit draws a line while
   * its top plus the font's line height fits, and puts the ellipsis on the line after which the
   * next would not fit, so the box ends part way into the line after the last.
   */
  private heightOf(lines: number, step: number): number {
    const line = this.pdf.currentLineHeight(true)
    return (lines - 1) * step + line + Math.min(step, line) / 2
  }

  /** The gap pdfkit leaves between lines for them to be `step` apart in the current font. */
  private gap(step: number): number {
    return step - this.pdf.currentLineHeight(true)
  }

  /** A horizontal rule across `width` from `x` at `y`. */
  rule(x: number, y: number, width: number, color: string, thickness = 0.5): void {
    this.pdf.moveTo(x, y).lineTo(x + width, y).lineWidth(thickness).strokeColor(color).stroke()
  }

  box(x: number, y: number, width: number, height: number, color: string): void {
    this.pdf.rect(x, y, width, height).fill(color)
  }
}
