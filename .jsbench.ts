// Temporary: times the JS part of a run's journal over rows read beforehand (not committed).
import Database from 'better-sqlite3'
import { fromUnits, moneyToNumber, add, ZERO, type Money } from './core/money/money.js'
import { csvCell } from './adapters/http/csv-response.js'
const db = new Database(process.argv[2], { readonly: true })
const heads = db.prepare(`select i.id as id, i."invoiceDate" as "date", coalesce(i."invoiceNumber", cast(i.id as text)) as document, i."customerID" as "customerID", (select coalesce(nullif(cu."accountingID", ''), cu."accountNumber") from customers cu where cu.id = i."customerID") as account from invoices i where i.id >= ? and i.id < ? order by i.id`)
const lines = db.prepare(`select l."invoiceID" as doc, l."accountCode" as code, l."VATRate" as "VATRate", l.net as net, l."VATAmount" as vat from invoice_journal_lines l where l."invoiceID" >= ? and l."invoiceID" < ? order by 1,2,3`)
const pages: any[] = []
for (let from = 1; from <= 200000; from += 5000) pages.push({ heads: heads.all(from, from + 5000), lines: lines.all(from, from + 5000) })
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6 }
const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(BigInt(v as number)))
const enc = new TextEncoder()
for (let rep = 0; rep < 3; rep++) {
  let t = cpu()
  let net = ZERO, vat = ZERO, bytes = 0
  for (const page of pages) {
    const byID = new Map<string, any>()
    for (const h of page.heads) byID.set(String(h.id), h)
    const out: any[] = []
    for (const l of page.lines) {
      const h = byID.get(String(l.doc))
      if (!h) continue
      out.push({ date: String(h.date), documentType: 'invoice', document: String(h.document), customerID: String(h.customerID), account: h.account === null ? null : String(h.account), accountCode: String(l.code), VATRate: l.VATRate === '' || l.VATRate === null ? null : String(l.VATRate), net: money(l.net), VAT: money(l.vat) })
    }
    for (const l of out) { net = add(net, l.net); vat = add(vat, l.VAT) }
    let text = ''
    for (const l of out) text += `${l.date},${l.documentType},${csvCell(l.document)},${l.customerID},${csvCell(l.account)},${csvCell(l.accountCode)},${csvCell(l.VATRate)},${moneyToNumber(l.net)},${moneyToNumber(l.VAT)}\r\n`
    bytes += enc.encode(text).length
  }
  console.log('current JS', (cpu() - t).toFixed(2), bytes)
}
// Variant: merge by order, a head's cells and a code's cells quoted once, amounts summed as numbers while exact.
const quoted = new Map<unknown, string>()
const cell = (v: unknown): string => { let q = quoted.get(v); if (q === undefined) { q = csvCell(v); if (quoted.size < 1000) quoted.set(v, q) } return q }
const amount = (u: number) => u / 10_000
for (let rep = 0; rep < 3; rep++) {
  let t = cpu()
  let net = 0, vat = 0, bytes = 0
  for (const page of pages) {
    let text = ''
    let j = 0
    let head: any = null
    let prefix = ''
    for (const l of page.lines) {
      while (j < page.heads.length && page.heads[j].id < l.doc) j++
      const h = page.heads[j]
      if (!h || h.id !== l.doc) continue
      if (h !== head) { head = h; prefix = `${h.date},invoice,${csvCell(String(h.document))},${h.customerID},${csvCell(h.account)},` }
      net += l.net; vat += l.vat
      text += `${prefix}${cell(l.code)},${cell(l.VATRate === '' ? null : l.VATRate)},${amount(l.net)},${amount(l.vat)}\r\n`
    }
    bytes += enc.encode(text).length
  }
  console.log('lean JS', (cpu() - t).toFixed(2), bytes, Number.isSafeInteger(net))
}
// Variant: lean, but each line an object sharing its head, amounts as Money (bigint) as the port has them.
for (let rep = 0; rep < 3; rep++) {
  let t = cpu()
  let net = ZERO, vat = ZERO, bytes = 0
  for (const page of pages) {
    let j = 0
    let head: any = null
    const out: any[] = []
    for (const l of page.lines) {
      while (j < page.heads.length && page.heads[j].id < l.doc) j++
      const h = page.heads[j]
      if (!h || h.id !== l.doc) continue
      if (h !== head) head = { date: String(h.date), documentType: 'invoice', document: String(h.document), customerID: String(h.customerID), account: h.account === null ? null : String(h.account), csv: '' }
      out.push({ of: head, accountCode: String(l.code), VATRate: l.VATRate === '' ? null : String(l.VATRate), net: money(l.net), VAT: money(l.vat) })
    }
    let text = ''
    let last: any = null
    let prefix = ''
    for (const l of out) {
      net = add(net, l.net); vat = add(vat, l.VAT)
      if (l.of !== last) { last = l.of; prefix = `${last.date},${last.documentType},${csvCell(last.document)},${last.customerID},${csvCell(last.account)},` }
      text += `${prefix}${cell(l.accountCode)},${cell(l.VATRate)},${moneyToNumber(l.net)},${moneyToNumber(l.VAT)}\r\n`
    }
    bytes += enc.encode(text).length
  }
  console.log('shared heads JS', (cpu() - t).toFixed(2), bytes)
}
// Variant: lean with Money amounts (BigInt per amount, summed and converted), no object per line.
for (let rep = 0; rep < 3; rep++) {
  let t = cpu()
  let net = ZERO, vat = ZERO, bytes = 0
  for (const page of pages) {
    let text = ''
    let j = 0
    let head: any = null
    let prefix = ''
    for (const l of page.lines) {
      while (j < page.heads.length && page.heads[j].id < l.doc) j++
      const h = page.heads[j]
      if (!h || h.id !== l.doc) continue
      if (h !== head) { head = h; prefix = `${h.date},invoice,${csvCell(String(h.document))},${h.customerID},${csvCell(h.account)},` }
      const n = money(l.net), v = money(l.vat)
      net = add(net, n); vat = add(vat, v)
      text += `${prefix}${cell(l.code)},${cell(l.VATRate === '' ? null : l.VATRate)},${moneyToNumber(n)},${moneyToNumber(v)}\r\n`
    }
    bytes += enc.encode(text).length
  }
  console.log('lean BigInt JS', (cpu() - t).toFixed(2), bytes)
}
