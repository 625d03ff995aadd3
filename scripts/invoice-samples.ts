/**
 * Regenerates the invoice pictures of the README (docs/invoice-summary.png, docs/invoice-calls.png):
 * an in-memory platform bills a sample customer, the library renders its invoice as a PDF, and
 * poppler's pdftoppm (Debian `poppler-utils`) draws its first sheet and its first itemised-calls sheet.
 *
 *   node --import tsx scripts/invoice-samples.ts [--out docs] [--style Standard] [--keep]
 *
 * `--keep` also writes the PDF and the HTML page beside the pictures.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createBillingPlatform } from '../index.js'
import { invoiceWorld } from '../tests/support/invoice-world.js'

const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs' }, style: { type: 'string', default: 'Standard' }, keep: { type: 'boolean', default: false } } })
const billing = await createBillingPlatform({
  databaseUrl: 'sqlite::memory:',
  clock: { now: () => '2026-02-10T09:00:00.000Z', today: () => '2026-02-10' } as never,
})
const { secret } = await billing.apiKeys.create({ name: 'samples', expertLevel: 5 })
const api = {
  async request(method: string, path: string, body?: unknown, o: { raw?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${secret}`, ...o.headers }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await billing.http.request(`/backend/api/v1${path}`, { method, headers, body: o.raw ?? (body === undefined ? undefined : JSON.stringify(body)) })
    return { status: res.status, body: await res.json() }
  },
}
const world = await invoiceWorld(api, async () => void (await billing.billingRuns.runNext()), {
  numbers: 6,
  calls: 90,
  payment: '150.00',
  accountNumber: 'NWT-00042',
  customer: { billStyle: values.style, defaultInvoiceMessage: 'Direct Debit reminder' },
})
const pdf = await billing.invoices.document(world.invoice.id, { format: 'pdf' })
if (values.keep) {
  writeFileSync(join(values.out!, 'invoice.pdf'), pdf)
  writeFileSync(join(values.out!, 'invoice.html'), await billing.invoices.document(world.invoice.id, { format: 'html' }))
}
await billing.close()

const work = mkdtempSync(join(tmpdir(), 'invoice-samples-'))
try {
  writeFileSync(join(work, 'invoice.pdf'), pdf)
  const text = execFileSync('pdftotext', ['-layout', join(work, 'invoice.pdf'), '-'], { encoding: 'utf8' })
  const sheets = text.split('\f')
  const calls = sheets.findIndex((s) => /^\s*Itemised Calls/m.test(s)) + 1
  const draw = (sheet: number, name: string) => {
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', String(sheet), '-l', String(sheet), '-singlefile', join(work, 'invoice.pdf'), join(work, name)])
    renameSync(join(work, `${name}.png`), join(values.out!, `${name}.png`))
    console.log(`${join(values.out!, `${name}.png`)}: sheet ${sheet} of ${sheets.length - 1}`)
  }
  draw(1, 'invoice-summary')
  draw(calls, 'invoice-calls')
} finally {
  rmSync(work, { recursive: true, force: true })
}
