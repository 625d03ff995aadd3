/**
 * Invoice documents (contract 10.5, issue 20): 1,000 invoices of 50 lines and one of 10,000
 * calls, each built by the pure model and rendered as a PDF (and the small ones as HTML),
 * beside a floor measured in the same run: pdfkit writing the same number of text lines with
 * the same embedded font and no model. Memory is sampled after a GC every 100 invoices.
 *
 *   npm run bench:documents -- [--scale 1] [--runs 3]
 */
import PDFDocument from 'pdfkit'
import { buildInvoiceDocument } from '../core/documents/invoice-document.js'
import type { InvoiceDocument } from '../core/documents/document-model.js'
import { defaultPresets } from '../core/presets/presets.js'
import { registerDocumentFonts } from '../adapters/documents/fonts.js'
import { renderInvoiceHtml } from '../adapters/documents/html-invoice.js'
import { renderInvoicePdf } from '../adapters/documents/pdf-invoice.js'
import { parseArgs, scaled } from './support/args.js'
import { Report, log } from './support/report.js'
import { median, percentile } from './support/stats.js'
import { syntheticSources } from './support/invoice-sources.js'

const args = parseArgs()
const report = new Report('invoice-documents', args)
const gc = (globalThis as { gc?: () => void }).gc
const heapMB = () => {
  gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}
const rssMB = () => process.memoryUsage().rss / 2 ** 20

/** The floor: pdfkit writing `lines` one-line texts, 60 to a sheet, in the same embedded font (parsed once, as the renderer has it); no model, no tables. */
async function floorPdf(lines: readonly string[]): Promise<number> {
  const pdf = new PDFDocument({ size: 'A4', margin: 0, font: null as unknown as string })
  const chunks: Buffer[] = []
  pdf.on('data', (c: Buffer) => chunks.push(c))
  const ended = new Promise((resolve) => pdf.on('end', resolve))
  await registerDocumentFonts(pdf)
  pdf.font('regular').fontSize(9)
  lines.forEach((line, i) => {
    if (i > 0 && i % 60 === 0) pdf.addPage()
    pdf.text(line, 40, 40 + (i % 60) * 12.5, { lineBreak: false })
  })
  pdf.end()
  await ended
  return Buffer.concat(chunks).length
}

/** Every row of every table of a document, as one line of text each: what the floor writes. */
const rowsOf = (doc: InvoiceDocument): string[] =>
  [doc.totals, doc.vatByRate, ...doc.sections.flatMap((s) => s.tables)].flatMap((t) => [...t.rows, ...(t.footer ? [t.footer] : [])].map((r) => r.cells.join('  ')))

const small = { numbers: 8, charges: 39, calls: 10 } // 39 charges + 1 service line + 10 calls = 50 lines
const count = scaled(1000, args.scale, 20)
const bigCalls = scaled(10_000, args.scale, 500)

// Warm up: fonts read, fontkit and the JIT compiled.
for (let i = 0; i < 20; i++) await renderInvoicePdf(buildInvoiceDocument(syntheticSources(i, small), { length: 'long', presets: defaultPresets }))

const pdfMs: number[] = []
const modelMs: number[] = []
const floorMs: number[] = []
const htmlMs: number[] = []
let bytes = 0
const heap: number[] = [heapMB()]
let peakRss = rssMB()
for (let i = 0; i < count; i++) {
  const sources = syntheticSources(i, small)
  let t = performance.now()
  const doc = buildInvoiceDocument(sources, { length: 'long', presets: defaultPresets })
  modelMs.push(performance.now() - t)
  bytes += (await renderInvoicePdf(doc)).length
  pdfMs.push(performance.now() - t)
  t = performance.now()
  renderInvoiceHtml(doc)
  htmlMs.push(performance.now() - t)
  const rows = rowsOf(doc)
  t = performance.now()
  await floorPdf(rows)
  floorMs.push(performance.now() - t)
  peakRss = Math.max(peakRss, rssMB())
  if ((i + 1) % 100 === 0 || i + 1 === count) {
    heap.push(heapMB())
    log(`${i + 1} invoices: pdf median ${median(pdfMs).toFixed(1)} ms, heap ${heap.at(-1)!.toFixed(1)} MB, rss ${rssMB().toFixed(0)} MB`)
  }
}
const fiftyRows = rowsOf(buildInvoiceDocument(syntheticSources(0, small), { length: 'long', presets: defaultPresets })).length
report.add({ name: `50-line invoice PDF (model + render), median of ${count}`, target: '< 50 ms', measured: median(pdfMs), unit: 'ms', baseline: median(floorMs), ratio: median(floorMs) / median(pdfMs), pass: median(pdfMs) < 50, note: `p95 ${percentile(pdfMs, 95).toFixed(1)} ms; floor: pdfkit writing the same ${fiftyRows} rows as plain lines; mean PDF ${Math.round(bytes / count / 1024)} KiB` })
report.add({ name: '50-line invoice, model alone', target: 'informative', measured: median(modelMs), unit: 'ms', pass: null })
report.add({ name: '50-line invoice HTML page', target: 'informative', measured: median(htmlMs), unit: 'ms', pass: null, note: `p95 ${percentile(htmlMs, 95).toFixed(2)} ms` })
const growth = heap.at(-1)! - heap[1]
report.add({ name: `heap after GC, after 100 → after ${count} invoices`, target: 'flat (< 5 MB growth)', measured: growth, unit: 'MB', pass: growth < 5, note: `${heap.slice(1).map((h) => h.toFixed(1)).join(', ')} MB; peak RSS ${peakRss.toFixed(0)} MB` })

const big = syntheticSources(1, { numbers: 20, charges: 39, calls: bigCalls })
const bigMs: number[] = []
const bigFloor: number[] = []
const rssBefore = rssMB()
let bigPeak = rssBefore
let sheets = 0
for (let r = 0; r < args.runs; r++) {
  let t = performance.now()
  const doc = buildInvoiceDocument(big, { length: 'long', presets: defaultPresets })
  const pdf = await renderInvoicePdf(doc)
  bigMs.push(performance.now() - t)
  bigPeak = Math.max(bigPeak, rssMB())
  sheets = (Buffer.from(pdf).toString('latin1').match(/\/Type \/Page\b/g) ?? []).length
  const rows = rowsOf(doc)
  t = performance.now()
  await floorPdf(rows)
  bigFloor.push(performance.now() - t)
}
report.add({ name: `${bigCalls.toLocaleString('en-GB')}-call invoice PDF (model + render), median of ${args.runs}`, target: '< 2 s', measured: median(bigMs), unit: 'ms', baseline: median(bigFloor), ratio: median(bigFloor) / median(bigMs), pass: median(bigMs) < 2000, note: `${sheets} sheets; RSS ${rssBefore.toFixed(0)} → peak ${bigPeak.toFixed(0)} MB` })
report.finish()
