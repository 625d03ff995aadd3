import type { DocumentRow, DocumentTable } from '../../core/documents/document-model.js'
import { RULE, SHADE } from './bill-layouts.js'
import type { PdfSheet } from './pdf-sheet.js'

const PAD = 4

/** Height of one table row for the layout's text size. */
export const rowHeight = (sheet: PdfSheet): number => Math.round(sheet.layout.fontSize * 1.9 * 10) / 10

/**
 * Draws a table row by row, each as tall as its longest cell wrapped (at most a sheet's body).
 * A row that would not fit starts a new sheet, where the caption (marked continued) and the
 * column headings are drawn again: no row is ever split. A table with no caption of its own
 * continues under `section`'s title, so a sheet that opens mid-table still says what the reader
 * is looking at.
 */
export function drawTable(sheet: PdfSheet, table: DocumentTable, x: number = sheet.page.margin, width: number = sheet.page.contentWidth, section?: string): void {
  const { layout } = sheet
  const h = rowHeight(sheet)
  const total = table.columns.reduce((t, c) => t + c.width, 0)
  const xs: number[] = []
  let at = x
  for (const c of table.columns) {
    xs.push(at)
    at += (c.width / total) * width
  }
  const colWidth = (i: number) => (table.columns[i].width / total) * width - 2 * PAD
  const hasHeadings = table.columns.some((c) => c.label)

  const head = (continued: boolean) => {
    const caption = table.caption ?? (continued ? section : undefined)
    if (caption) {
      sheet.use('bold', layout.fontSize + 1, layout.accent)
      sheet.cell(continued ? `${caption} (continued)` : caption, x, width)
      sheet.y += h
    }
    if (hasHeadings) {
      sheet.use('bold', layout.fontSize - 0.5, layout.accent)
      table.columns.forEach((c, i) => sheet.cell(c.label, xs[i] + PAD, colWidth(i), c.align, sheet.y + 2))
      sheet.y += h
      sheet.rule(x, sheet.y - 3, width, layout.accent, 0.8)
    }
  }
  // A cell too long for its column (a long description) wraps onto more lines, `step` apart,
  // and its row grows to hold them, up to what a sheet's body holds under the table's continued
  // headings: a longer cell (a description near the 10,000 characters a Text field allows) is
  // cut there with an ellipsis, so every row fits one sheet beside its other cells.
  const step = layout.fontSize * 1.3
  const headings = ((table.caption ?? section) ? h : 0) + (hasHeadings ? h : 0)
  const most = Math.max(1, Math.floor((sheet.page.bottom - sheet.page.margin - headings - h) / step - 1e-6) + 1)
  const line = (row: DocumentRow, index: number, bold: boolean) => {
    const font = bold ? 'bold' : 'regular'
    sheet.use(font, layout.fontSize)
    // Measured once a cell: most fit one line, drawn as `cell` draws them, without measuring again.
    const counts = row.cells.map((text, i) => (text ? sheet.linesOf(text, colWidth(i), step) : 1))
    const lines = Math.min(most, Math.max(1, ...counts))
    const height = h + step * (lines - 1)
    if (sheet.ensure(height)) head(true)
    if (layout.zebra && !bold && index % 2 === 1) sheet.box(x, sheet.y - 2, width, height, SHADE)
    if (bold) sheet.rule(x, sheet.y - 2, width, layout.accent, 0.8)
    sheet.use(font, layout.fontSize)
    row.cells.forEach((text, i) => {
      if (!text) return
      if (counts[i] === 1) sheet.cell(text, xs[i] + PAD, colWidth(i), table.columns[i].align, sheet.y + 2)
      else sheet.wrap(text, xs[i] + PAD, colWidth(i), step, table.columns[i].align, sheet.y + 2, most)
    })
    sheet.y += height
    if (layout.rowRules && !bold) sheet.rule(x, sheet.y - 2, width, RULE, 0.3)
  }

  // The caption, headings and first row go together: a heading never ends a sheet.
  const captionRows = (table.caption ? 1 : 0) + (hasHeadings ? 1 : 0)
  sheet.ensure(h * (captionRows + 1))
  head(false)
  table.rows.forEach((row, i) => line(row, i, false))
  if (table.footer) line(table.footer, 0, true)
  sheet.y += h * 0.6
}
