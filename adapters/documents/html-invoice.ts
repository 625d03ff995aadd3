import type { Orientation } from '../../core/documents/bill-format.js'
import type { DocumentRow, DocumentSection, DocumentTable, InvoiceDocument } from '../../core/documents/document-model.js'
import { billLayouts, breaksBefore, RULE, SHADE, type BillLayout } from './bill-layouts.js'
import { paymentDetailsHtml, sellerCss, sellerHtml } from './html-seller.js'

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
/** Text made safe for HTML content and attribute values. */
const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => escapes[c])

/**
 * An invoice as one self-contained HTML page (contract 10.5): the same document model as the
 * PDF, inline CSS, no script and no external request (fonts are the reader's own sans-serif).
 * Rows carry `data-key` where the model names them, so machines can read totals back.
 */
export function renderInvoiceHtml(doc: InvoiceDocument): string {
  const layout = billLayouts[doc.style]
  const out: string[] = []
  out.push(
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(doc.title)}</title><style>${css(layout, doc.orientation)}</style></head>`,
    `<body data-style="${esc(doc.style)}" data-orientation="${doc.orientation}"><main class="sheet">`,
    `<header class="letterhead ${layout.letterhead}"><h1>${esc(doc.heading)}</h1>`,
    doc.notices.length ? `<p class="notices">${esc(doc.notices.join(' · '))}</p>` : '',
    '</header>',
    sellerHtml(doc.seller),
    '<div class="parties"><address class="bill-to"><span class="label">Bill to</span>',
    doc.billTo.map((line, i) => (i === 0 ? `<strong>${esc(line)}</strong>` : `<span>${esc(line)}</span>`)).join(''),
    '</address><dl class="details">',
    doc.details.map((d) => `<div><dt>${esc(d.label)}</dt><dd>${esc(d.value)}</dd></div>`).join(''),
    '</dl></div><div class="figures">',
    table(doc.vatByRate, 'vat-by-rate'),
    table(doc.totals, 'totals'),
    '</div>',
    doc.message ? `<aside class="message">${esc(doc.message)}</aside>` : '',
    paymentDetailsHtml(doc.seller),
  )
  doc.sections.forEach((section, i) => {
    const breaks = breaksBefore(layout, section.page, i) ? ' sheet-break' : ''
    out.push(`<section class="bill-page${breaks}" data-page="${esc(section.page)}"><h2>${esc(section.title)}</h2>`)
    if (section.note) out.push(`<p class="note">${esc(section.note)}</p>`)
    if (section.grouping) out.push(groups(section))
    else for (const t of section.tables) out.push(table(t))
    out.push('</section>')
  })
  out.push(`<footer>${esc(doc.title)}</footer></main></body></html>`)
  return out.join('')
}

/** A grouped page: a heading per group (h3, under the page's h2) over its tables and subtotal, then the page's total. */
function groups(section: DocumentSection): string {
  const { groups, total } = section.grouping!
  const parts = groups.map(
    (g) => `<div class="bill-group"><h3>${esc(g.heading)}</h3>${g.tables.map((t) => table(t)).join('')}${table(g.subtotal, 'subtotal')}</div>`,
  )
  return parts.join('') + table(total, 'subtotal page-total')
}

function table(t: DocumentTable, name?: string): string {
  const total = t.columns.reduce((sum, c) => sum + c.width, 0)
  const align = (i: number) => (t.columns[i].align === 'right' ? ' class="num"' : '')
  const row = (r: DocumentRow, cell: 'td' | 'th') =>
    `<tr${r.key ? ` data-key="${esc(r.key)}"` : ''}>${r.cells.map((c, i) => `<${cell}${align(i)}>${esc(c)}</${cell}>`).join('')}</tr>`
  const headings = t.columns.some((c) => c.label)
    ? `<thead><tr>${t.columns.map((c, i) => `<th scope="col"${align(i)}>${esc(c.label)}</th>`).join('')}</tr></thead>`
    : ''
  return [
    `<table${name ? ` class="${name}"` : ''}>`,
    t.caption ? `<caption>${esc(t.caption)}</caption>` : '',
    `<colgroup>${t.columns.map((c) => `<col style="width:${((c.width / total) * 100).toFixed(2)}%">`).join('')}</colgroup>`,
    headings,
    `<tbody>${t.rows.map((r) => row(r, 'td')).join('')}</tbody>`,
    t.footer ? `<tfoot>${row(t.footer, 'th')}</tfoot>` : '',
    '</table>',
  ].join('')
}

/**
 * The page's whole style sheet, from the bill style's layout; a landscape document (the
 * customer's `billFormatOverride`) is a wider sheet on screen and prints on A4 landscape.
 */
function css(l: BillLayout, orientation: Orientation): string {
  return `
:root{--accent:${l.accent};--shade:${SHADE};--rule:${RULE};color-scheme:light}
*{box-sizing:border-box}
body{margin:0;background:#e9ecf1;color:#1a1a1a;font:${l.fontSize + 1.5}pt/1.45 "DejaVu Sans",Verdana,"Segoe UI",Arial,sans-serif}
.sheet{max-width:210mm;margin:16px auto;background:#fff;padding:14mm 14mm 10mm;box-shadow:0 1px 4px rgba(0,0,0,.15)}
.letterhead{display:flex;justify-content:space-between;align-items:center;margin:0 0 18px}
.letterhead h1{margin:0;font-size:24pt;text-transform:uppercase;letter-spacing:.02em;color:var(--accent)}
.letterhead.rule{border-bottom:2px solid var(--accent);padding-bottom:8px}
.letterhead.band{background:var(--accent);color:#fff;margin:-14mm -14mm 18px;padding:10mm 14mm}
.letterhead.band h1,.letterhead.band .notices{color:#fff}
.notices{margin:0;font-weight:bold;color:var(--accent)}
.parties{display:flex;gap:24px;justify-content:space-between;margin-bottom:16px}
.bill-to{font-style:normal;display:flex;flex-direction:column;flex:1}
.label,dt{color:#5a6270}
.details{margin:0;flex:1}
.details div{display:flex;justify-content:space-between;gap:12px}
.details dd{margin:0;font-weight:bold;text-align:right}
.figures{display:flex;gap:24px;align-items:flex-start;margin-bottom:14px}
.figures table{flex:1}
table.totals{background:var(--shade)}
table{width:100%;border-collapse:collapse;table-layout:fixed;margin:0 0 12px}
caption{text-align:left;font-weight:bold;color:var(--accent);padding:4px 0}
th,td{padding:3px 5px;text-align:left;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
thead th{color:var(--accent);border-bottom:1.5px solid var(--accent);font-size:.95em}
tfoot th{border-top:1.5px solid var(--accent)}
.num{text-align:right;font-variant-numeric:tabular-nums}
${l.rowRules ? 'tbody td{border-bottom:.5px solid var(--rule)}' : ''}
${l.zebra ? 'tbody tr:nth-child(even){background:var(--shade)}' : ''}
.message{background:var(--shade);border-left:3px solid var(--accent);padding:8px 12px;margin:0 0 16px;white-space:pre-line}
h2{color:var(--accent);font-size:1.35em;margin:18px 0 8px}
h3{color:var(--accent);font-size:1.15em;margin:14px 0 6px}
table.subtotal tfoot th{border-top-width:.8px}
.note{color:#5a6270}
footer{margin-top:18px;color:#5a6270;font-size:.85em;text-align:right}
${sellerCss}
${orientation === 'landscape' ? '.sheet{max-width:297mm}\n@page{size:A4 landscape}' : ''}
@media print{body{background:#fff}.sheet{box-shadow:none;margin:0;max-width:none}.sheet-break{break-before:page}tr{break-inside:avoid}h3{break-after:avoid}}
`.trim()
}
