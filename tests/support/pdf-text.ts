import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

/**
 * The text of each sheet of a PDF as lines, read by PDF.js (a dev dependency, so no system tool
 * is needed): pieces on one baseline joined left to right by single spaces, lines top to bottom.
 */
export async function pdfLines(bytes: Uint8Array): Promise<string[][]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise
  const sheets: string[][] = []
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n)
    const content = await page.getTextContent()
    const rows = new Map<number, { x: number; text: string }[]>()
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue
      const y = Math.round(item.transform[5])
      const row = rows.get(y) ?? []
      row.push({ x: item.transform[4], text: item.str.trim() })
      rows.set(y, row)
    }
    sheets.push(
      [...rows.entries()]
        .sort(([a], [b]) => b - a)
        .map(([, pieces]) => pieces.sort((a, b) => a.x - b.x).map((p) => p.text).join(' ')),
    )
  }
  await pdf.destroy()
  return sheets
}

/** Whether bytes are a PDF (its header). */
export const isPdf = (bytes: Uint8Array): boolean => Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-'

/** Each sheet's width and height in points, as PDF.js reads them (its MediaBox, turned by its Rotate). */
export async function pdfSheetSizes(bytes: Uint8Array): Promise<{ width: number; height: number }[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise
  const sizes: { width: number; height: number }[] = []
  for (let n = 1; n <= pdf.numPages; n++) {
    const { width, height } = (await pdf.getPage(n)).getViewport({ scale: 1 })
    sizes.push({ width: Math.round(width), height: Math.round(height) })
  }
  await pdf.destroy()
  return sizes
}
