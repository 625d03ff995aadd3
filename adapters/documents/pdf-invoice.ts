import type { DocumentSection, InvoiceDocument } from '../../core/documents/document-model.js'
import { billLayouts, breaksBefore, SHADE } from './bill-layouts.js'
import { registerDocumentFonts } from './fonts.js'
import { PAGES, PdfSheet } from './pdf-sheet.js'
import { drawTable, rowHeight } from './pdf-table.js'
import { drawPaymentDetails, drawSeller } from './pdf-seller.js'

/**
 * Where the bill-to address goes: 20 mm from the left and 50 mm from the top, inside the window
 * of a DL or C5 window envelope once the sheet is folded (the print file relies on it, 14.2).
 * A landscape sheet (`billFormatOverride` `Landscape`, never posted) keeps it at the same place
 * from its top-left corner.
 */
export const ADDRESS_WINDOW = { x: 56.7, y: 141.7 } as const

const GREY = '#5a6270'

/**
 * An invoice as a PDF (contract 10.5), drawn with pdfkit from the document model, in DejaVu
 * Sans embedded (subset) so that it prints the same everywhere. Sheets carry "page n of m".
 */
export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Uint8Array> {
  return renderInvoicesPdf([doc], { title: doc.title })
}

/**
 * Several invoices in one PDF (a billing run's print file, contract 14.2): each starts on a new
 * sheet of paper, so a document that ends on an odd page is followed by a blank one (printed
 * double-sided, the next invoice would otherwise be on the back of the last one's sheet); each
 * keeps its own "page n of m" and its address where an envelope's window shows it.
 */
export async function renderInvoicesPdf(docs: readonly InvoiceDocument[], options: { title: string; sheets?: boolean }): Promise<Uint8Array> {
  // pdfkit (and fontkit, fonts.ts) load with the first document: a third of a second of CPU
  // that every process paid at its start, though most (a worker, a CLI) never draw one.
  const { default: PDFDocument } = await import('pdfkit')
  // `font: null`: no default Helvetica is loaded (and parsed) for a document that never uses it.
  const pdf = new PDFDocument({ size: 'A4', margin: 0, bufferPages: true, autoFirstPage: false, font: null as unknown as string, info: { Title: options.title, Creator: 'telco-billing' } })
  const chunks: Buffer[] = []
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve)
    pdf.on('error', reject)
  })
  await registerDocumentFonts(pdf)
  if (docs.length === 0) pdf.addPage()
  let last: PdfSheet | undefined
  docs.forEach((doc, i) => {
    // The blank back of the last document's sheet is turned as that sheet is.
    if (i > 0 && options.sheets && pdf.bufferedPageRange().count % 2 === 1) last?.newPage()
    const first = pdf.bufferedPageRange().count
    const sheet = new PdfSheet(pdf, billLayouts[doc.style], PAGES[doc.orientation])
    last = sheet
    sheet.newPage()
    drawInvoice(sheet, doc)
    drawFooters(sheet, doc, first)
  })
  pdf.end()
  await ended
  return Buffer.concat(chunks)
}

/** One invoice from the top of a new sheet. */
function drawInvoice(sheet: PdfSheet, doc: InvoiceDocument): void {
  drawHeader(sheet, doc)
  doc.sections.forEach((section, i) => {
    const h = rowHeight(sheet)
    if (breaksBefore(sheet.layout, section.page, i)) sheet.newPage()
    else sheet.ensure(h * 5)
    const { margin, contentWidth } = sheet.page
    sheet.use('bold', sheet.layout.fontSize + 4, sheet.layout.accent)
    sheet.cell(section.title, margin, contentWidth)
    sheet.y += h * 1.6
    if (section.note) {
      sheet.use('regular', sheet.layout.fontSize, GREY)
      sheet.cell(section.note, margin, contentWidth)
      sheet.y += h * 1.5
    }
    if (section.grouping) drawGroups(sheet, section)
    else for (const table of section.tables) drawTable(sheet, table, undefined, undefined, section.title)
  })
}

/** A grouped page (the customer's `billFormatOverride`): each group's heading, tables and subtotal, then the page's total. */
function drawGroups(sheet: PdfSheet, section: DocumentSection): void {
  const h = rowHeight(sheet)
  const { margin, contentWidth } = sheet.page
  for (const group of section.grouping!.groups) {
    // The heading keeps company with its first table's caption, headings and row.
    sheet.ensure(h * 5)
    sheet.use('bold', sheet.layout.fontSize + 2, sheet.layout.accent)
    sheet.cell(group.heading, margin, contentWidth)
    sheet.y += h * 1.3
    const within = `${section.title} – ${group.heading}`
    for (const table of group.tables) drawTable(sheet, table, undefined, undefined, within)
    drawTable(sheet, group.subtotal, undefined, undefined, within)
  }
  drawTable(sheet, section.grouping!.total, undefined, undefined, section.title)
}

/** Letterhead, bill-to and details, totals with VAT by rate, and the message: the first sheet's top. */
function drawHeader(sheet: PdfSheet, doc: InvoiceDocument): void {
  const { layout } = sheet
  const { margin: m, contentWidth } = sheet.page
  const half = contentWidth / 2
  const h = rowHeight(sheet)
  if (layout.letterhead === 'band') {
    // Ends above the seller block (contract 14.1).
    sheet.box(0, 0, sheet.page.width, 64, layout.accent)
    sheet.use('bold', 22, '#ffffff')
    sheet.cell(doc.heading.toUpperCase(), m, half, 'left', 22)
    sheet.use('regular', 10, '#ffffff')
    sheet.cell(doc.notices.join(' · '), m + half, half, 'right', 30)
  } else {
    sheet.use('bold', 22, layout.accent)
    sheet.cell(doc.heading.toUpperCase(), m, half, 'left', 34)
    sheet.use('bold', 10, layout.accent)
    sheet.cell(doc.notices.join(' · '), m + half, half, 'right', 42)
    sheet.rule(m, 66, contentWidth, layout.accent, 1.5)
  }
  // The seller above the bill-to block (contract 14.1), which sits in the envelope's window:
  // a seller too long to keep above it even in small text pushes it (and what follows) down.
  const sellerEnd = drawSeller(sheet, doc.seller, m, 74, contentWidth, ADDRESS_WINDOW.y - h - 2)
  const windowY = Math.max(ADDRESS_WINDOW.y, sellerEnd + 2 + h)
  // Names, addresses and references are shown whole (contract 10.5): a long one wraps within
  // its column, and the lines below it move down.
  let left = windowY - h
  sheet.use('regular', layout.fontSize - 0.5, GREY)
  sheet.cell('Bill to', ADDRESS_WINDOW.x, half - 10, 'left', left)
  left += h
  const billToWidth = half - 10 - (ADDRESS_WINDOW.x - m)
  doc.billTo.forEach((text, i) => {
    sheet.use(i === 0 ? 'bold' : 'regular', layout.fontSize + 1)
    const step = (layout.fontSize + 1) * 1.25
    left += h + step * (sheet.wrap(text, ADDRESS_WINDOW.x, billToWidth, step, 'left', left) - 1)
  })
  let right = windowY - h
  for (const d of doc.details) {
    sheet.use('regular', layout.fontSize, GREY)
    sheet.cell(d.label, m + half, half * 0.42, 'left', right)
    sheet.use('bold', layout.fontSize)
    const step = layout.fontSize * 1.3
    right += h + step * (sheet.wrap(d.value, m + half + half * 0.42, half * 0.58, step, 'right', right) - 1)
  }
  sheet.y = Math.max(left, right) + h
  const top = sheet.y
  drawTable(sheet, doc.vatByRate, m, half - 16)
  const afterVat = sheet.y
  sheet.y = top
  sheet.box(m + half, top - 4, half, rowHeight(sheet) * (doc.totals.rows.length + 1) + 8, SHADE)
  drawTable(sheet, doc.totals, m + half, half)
  sheet.y = Math.max(afterVat, sheet.y) + h * 0.5
  if (doc.message) drawMessage(sheet, doc.message)
  sheet.y += h * 0.5
  drawPaymentDetails(sheet, doc.seller, m, contentWidth)
  sheet.y += h * 0.5
}

/** The invoice message in a shaded box with an accent bar; it may run over several lines. */
function drawMessage(sheet: PdfSheet, message: string): void {
  const { pdf, layout } = sheet
  const { margin: m, contentWidth } = sheet.page
  const width = contentWidth - 24
  sheet.use('regular', layout.fontSize + 0.5)
  const height = pdf.heightOfString(message, { width }) + 16
  sheet.ensure(height)
  sheet.box(m, sheet.y, contentWidth, height, SHADE)
  sheet.box(m, sheet.y, 3, height, layout.accent)
  sheet.use('regular', layout.fontSize + 0.5)
  pdf.text(message, m + 14, sheet.y + 8, { width })
  sheet.y += height
}

/** "Invoice 42 · account ACC-1 · page 2 of 5" at the foot of every sheet of the document from page `first`. */
function drawFooters(sheet: PdfSheet, doc: InvoiceDocument, first: number): void {
  const { pdf, page } = sheet
  const range = { start: first, count: pdf.bufferedPageRange().count - first }
  const account = doc.details.find((d) => d.label === 'Account number')?.value
  for (let i = 0; i < range.count; i++) {
    pdf.switchToPage(range.start + i)
    sheet.use('regular', 7.5, GREY)
    const text = [doc.title, account ? `Account ${account}` : null, `Page ${i + 1} of ${range.count}`].filter(Boolean).join(' · ')
    sheet.rule(page.margin, page.height - 40, page.contentWidth, '#c9ced6', 0.5)
    sheet.cell(text, page.margin, page.contentWidth, 'right', page.height - 34)
  }
}
