import type { SellerBlock } from '../../core/documents/seller-block.js'
import type { PdfSheet } from './pdf-sheet.js'
import { rowHeight } from './pdf-table.js'

const GREY = '#5a6270'

/** The smallest text the seller block shrinks to before it pushes the bill-to block down. */
const MIN_SIZE = 6.5

/**
 * The seller block of a PDF document (invoice, credit note) from `y`, `width` wide at `x`: the
 * name, the address, then the registration numbers and contacts, each wrapped onto more lines
 * when it needs them, never cut (contract 14.1: what a VAT invoice must name). The block keeps
 * above `limit` (the bill-to block, in an envelope's window) by smaller text where it must,
 * down to `MIN_SIZE`; past that it ends below `limit`. Answers where it ends.
 */
export function drawSeller(sheet: PdfSheet, seller: SellerBlock, x: number, y: number, width: number, limit = Infinity): number {
  let size = sheet.layout.fontSize - 0.5
  while (size > MIN_SIZE && sellerBlock(sheet, seller, x, y, width, size, false) > limit) size -= 0.5
  return sellerBlock(sheet, seller, x, y, width, size, true)
}

/** Where the seller block in text of `size` ends, drawing it when `draw` says so. */
function sellerBlock(sheet: PdfSheet, seller: SellerBlock, x: number, y: number, width: number, size: number, draw: boolean): number {
  // Tight lines: the block fits between the letterhead and the envelope window below it.
  const h = size * 1.35
  const put = (text: string, step: number) => {
    y += step * (draw ? sheet.wrap(text, x, width, step, 'left', y) : sheet.linesOf(text, width, step))
  }
  sheet.use('bold', size + 1.5)
  put(seller.name, h * 1.15)
  sheet.use('regular', size, GREY)
  if (seller.address.length) put(seller.address.join(', '), h)
  // Registration numbers on one line, email and phone on the next.
  const lines = [seller.facts.slice(0, 2), seller.facts.slice(2)].filter((l) => l.length)
  for (const facts of lines) put(facts.map((f) => `${f.label} ${f.value}`).join('  ·  '), h)
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
