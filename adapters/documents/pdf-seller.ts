import type { SellerBlock } from '../../core/documents/seller-block.js'
import type { PdfSheet } from './pdf-sheet.js'
import { rowHeight } from './pdf-table.js'

const GREY = '#5a6270'

/**
 * The seller block of a PDF document (invoice, credit note) from `y`, `width` wide at `x`: the
 * name, the address on one line, then the registration numbers and contacts. Answers where it
 * ends. Kept to four lines so the bill-to block below still sits in an envelope's window.
 */
export function drawSeller(sheet: PdfSheet, seller: SellerBlock, x: number, y: number, width: number): number {
  const size = sheet.layout.fontSize - 0.5
  // Tight lines: the block fits between the letterhead and the envelope window below it.
  const h = size * 1.35
  sheet.use('bold', size + 1.5)
  sheet.cell(seller.name, x, width, 'left', y)
  y += h * 1.15
  sheet.use('regular', size, GREY)
  if (seller.address.length) {
    sheet.cell(seller.address.join(', '), x, width, 'left', y)
    y += h
  }
  // Registration numbers on one line, email and phone on the next.
  const lines = [seller.facts.slice(0, 2), seller.facts.slice(2)].filter((l) => l.length)
  for (const facts of lines) {
    sheet.cell(facts.map((f) => `${f.label} ${f.value}`).join('  ·  '), x, width, 'left', y)
    y += h
  }
  return y
}

/** "How to pay" and the seller's payment details below a document's totals (several lines allowed). */
export function drawPaymentDetails(sheet: PdfSheet, seller: SellerBlock, x: number, width: number): void {
  if (!seller.paymentDetails) return
  const h = rowHeight(sheet)
  const text = `How to pay: ${seller.paymentDetails}`
  sheet.use('regular', sheet.layout.fontSize)
  const height = sheet.pdf.heightOfString(text, { width }) + 4
  sheet.ensure(height)
  sheet.pdf.text(text, x, sheet.y, { width })
  sheet.y += height + h * 0.5
}
