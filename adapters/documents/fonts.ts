import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Font } from 'fontkit'

/**
 * The embedded fonts (DejaVu Sans, shipped in `assets/fonts` with its licence): every glyph a
 * bill prints, £ and € among them. Parsed once by fontkit and handed to every document: pdfkit
 * parsing the files again for each document was two thirds of a small invoice's time
 * (bench/invoice-documents.ts). Each document still embeds its own subset of them.
 */
export interface DocumentFonts {
  readonly regular: Font
  readonly bold: Font
}

let loaded: Promise<DocumentFonts> | undefined

/**
 * The package's fonts, read once. This module runs from `adapters/documents` (sources) or
 * `dist/adapters/documents` (built), so the package root is two or three folders up. fontkit
 * loads with the first document, as pdfkit does (pdf-invoice.ts).
 */
export function documentFonts(): Promise<DocumentFonts> {
  loaded ??= readFonts()
  return loaded
}

async function readFonts(): Promise<DocumentFonts> {
  const { create } = await import('fontkit')
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 5; i++) {
    const fonts = join(dir, 'assets', 'fonts')
    if (existsSync(join(fonts, 'DejaVuSans.ttf'))) {
      const open = (file: string) => create(readFileSync(join(fonts, file))) as Font
      return { regular: open('DejaVuSans.ttf'), bold: open('DejaVuSans-Bold.ttf') }
    }
    dir = dirname(dir)
  }
  loaded = undefined
  throw new Error('assets/fonts/DejaVuSans.ttf is missing from the package: invoice PDFs need it')
}

/**
 * Registers the fonts as `regular` and `bold` on a pdfkit document. pdfkit takes a parsed
 * fontkit font (anything with `layout`) though its type definitions list only files and bytes.
 */
export async function registerDocumentFonts(pdf: PDFKit.PDFDocument): Promise<void> {
  const fonts = await documentFonts()
  pdf.registerFont('regular', fonts.regular as unknown as PDFKit.Mixins.PDFFontSource)
  pdf.registerFont('bold', fonts.bold as unknown as PDFKit.Mixins.PDFFontSource)
}
