import type PDFDocument from 'pdfkit'
import type { BillLayout } from './bill-layouts.js'

export type Pdf = InstanceType<typeof PDFDocument>

/** A4 in points, and the margins every sheet keeps (the footer sits in the bottom one). */
export const PAGE = { width: 595.28, height: 841.89, margin: 40, bottom: 841.89 - 52 } as const
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin

export type FontName = 'regular' | 'bold'

/**
 * The pen of a PDF invoice: where the next line goes, and text that never wraps or spills:
 * every piece is one line, cut with an ellipsis to its width, so no line can break across a
 * sheet (the renderer moves to a new sheet before a row that would not fit).
 */
export class PdfSheet {
  y: number = PAGE.margin
  private readonly widths = new Map<string, number>()
  private font: FontName = 'regular'
  private size = 0

  constructor(
    readonly pdf: Pdf,
    readonly layout: BillLayout,
  ) {}

  /** Starts a new sheet at its top margin. */
  newPage(): void {
    this.pdf.addPage()
    this.y = PAGE.margin
  }

  /** Moves to a new sheet unless `height` more points fit on this one. */
  ensure(height: number): boolean {
    if (this.y + height <= PAGE.bottom) return false
    this.newPage()
    return true
  }

  use(font: FontName, size: number, color = '#1a1a1a'): void {
    if (font !== this.font || size !== this.size) {
      this.pdf.font(font).fontSize(size)
      this.font = font
      this.size = size
    }
    this.pdf.fillColor(color)
  }

  /** Width of text in the current font, measured once per font, size and text (rows repeat dates and types). */
  width(text: string): number {
    const key = `${this.font}${this.size}|${text}`
    let w = this.widths.get(key)
    if (w === undefined) {
      w = this.pdf.widthOfString(text)
      this.widths.set(key, w)
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

  /** A horizontal rule across `width` from `x` at `y`. */
  rule(x: number, y: number, width: number, color: string, thickness = 0.5): void {
    this.pdf.moveTo(x, y).lineTo(x + width, y).lineWidth(thickness).strokeColor(color).stroke()
  }

  box(x: number, y: number, width: number, height: number, color: string): void {
    this.pdf.rect(x, y, width, height).fill(color)
  }
}
