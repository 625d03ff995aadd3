import type { Transaction } from '../fields/entity.js'
import type { Money } from '../money/money.js'
import type { BillPage } from '../presets/engine-lists.js'
import type { GroupBy } from './bill-format.js'
import type { NumberShows } from './bill-pages.js'
import { lineKindOf, sumOf, type LineKind } from './charge-sections.js'
import { byKey } from './call-sections.js'
import { displayCount, displayMoney } from './display.js'
import type { DocumentGroup, DocumentRow, DocumentSection, DocumentTable } from './document-model.js'
import type { DocumentCall, InvoiceSources } from './invoice-sources.js'

/** The pages each grouping groups (bill-format.ts); the others lay out as always. */
const groupedPages: Readonly<Record<GroupBy, readonly BillPage[]>> = {
  site: ['Charges', 'Services', 'Itemised Calls'],
  costCentre: ['Charges', 'Calls by Number', 'Itemised Calls'],
}

const fallback: Readonly<Record<GroupBy, string>> = { site: 'No site', costCentre: 'Unassigned' }
const headingOf = (by: GroupBy, key: string): string => (key ? `${by === 'site' ? 'Site' : 'Cost centre'} ${key}` : fallback[by])

/**
 * A page of the document under a grouping override: the page's lines split by site or cost
 * centre, each part drawn by the page's own builder (so a group looks as the page always does),
 * under its heading and over its count and subtotal; then the page's total. Groups come in name
 * order, "No site" or "Unassigned" last. The parts split the page's lines exactly, so the group
 * subtotals add up to the page's total and to what the invoice charged for them.
 */
export function groupedSection(
  page: BillPage,
  by: GroupBy,
  s: InvoiceSources,
  shows: NumberShows,
  currency: string | null,
  build: (part: InvoiceSources) => DocumentSection,
): DocumentSection {
  if (!groupedPages[by].includes(page)) return build(s)
  const key = keysOf(s, by)
  const shown = itemsOf(page, s, shows)
  const keys = [...new Set([...shown.lines.map(key.line), ...shown.calls.map(key.call)])]
  if (keys.length === 0) return build(s)
  keys.sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a < b ? -1 : a > b ? 1 : 0))
  // Each line and call into its group once: an invoice of many sites and calls is not filtered again per site.
  const transactions = byKey(s.transactions, key.line)
  const calls = byKey(s.calls, key.call)
  const groups = keys.map((k): DocumentGroup => {
    const part = { ...s, transactions: transactions.get(k) ?? [], calls: calls.get(k) ?? [] }
    const section = build(part)
    const heading = headingOf(by, k)
    const measure = measureOf(page, itemsOf(page, part, shows))
    // Calls by Number captions its tables by `displayWith`, which the heading now says.
    const tables = page === 'Calls by Number' ? section.tables.map((t) => ({ ...t, caption: null })) : section.tables
    return { heading, tables, subtotal: oneRow([`${heading} subtotal`, measure.count, displayMoney(measure.amount, currency)], 'group-subtotal'), amount: measure.amount }
  })
  const whole = measureOf(page, shown)
  const amount = sumOf(groups.map((g) => g.amount))
  return {
    page,
    title: page,
    tables: groups.flatMap((g) => g.tables),
    note: null,
    grouping: { by, groups, total: oneRow(['Total', whole.count, displayMoney(amount, currency)], 'page-total'), amount },
  }
}

interface Keys {
  readonly line: (t: Transaction) => string
  readonly call: (c: DocumentCall) => string
}

/** A line's and a call's group: the site (feature's, else number's, else service's) or the number's `displayWith`; '' for none. */
function keysOf(s: InvoiceSources, by: GroupBy): Keys {
  const numbers = new Map(s.numbers.map((n) => [n.id, n]))
  const features = new Map(s.features.map((f) => [f.id, f]))
  const services = new Map(s.services.map((x) => [x.id, x]))
  const named = (text: string | null | undefined) => text?.trim() ?? ''
  const number = (id: string | null) => (id ? numbers.get(id) : undefined)
  if (by === 'costCentre') {
    return { line: (t) => named(number(t.numberID)?.displayWith), call: (c) => named(number(c.numberID)?.displayWith) }
  }
  return {
    line: (t) =>
      named(t.featureID ? features.get(t.featureID)?.site : null) || named(number(t.numberID)?.site) || named(t.serviceID ? services.get(t.serviceID)?.site : null),
    call: (c) => named(number(c.numberID)?.site),
  }
}

const kindOf: Partial<Record<BillPage, LineKind>> = { Charges: 'charges', Services: 'services', 'Calls by Number': 'calls', 'Itemised Calls': 'calls' }

/** What a page shows of the sources: its lines, and for the calls pages its calls; a number's page list applies. */
function itemsOf(page: BillPage, s: InvoiceSources, shows: NumberShows): { lines: Transaction[]; calls: DocumentCall[] } {
  const kind = kindOf[page]
  // Itemised Calls lists calls, not the Call Charges lines that billed them.
  const lines = page === 'Itemised Calls' ? [] : s.transactions.filter((t) => lineKindOf(t) === kind && shows(t.numberID, page))
  const calls = kind === 'calls' ? s.calls.filter((c) => shows(c.numberID, page)) : []
  return { lines, calls }
}

/** The count and amount a group shows: calls and their cost itemised, else lines and what they charged. */
function measureOf(page: BillPage, items: { lines: Transaction[]; calls: DocumentCall[] }): { count: string; amount: Money } {
  const plural = (n: number, one: string) => `${displayCount(n)} ${one}${n === 1 ? '' : 's'}`
  if (page === 'Itemised Calls') return { count: plural(items.calls.length, 'call'), amount: sumOf(items.calls.map((c) => c.cost)) }
  const count = kindOf[page] === 'calls' ? plural(items.calls.length, 'call') : plural(items.lines.length, 'line')
  return { count, amount: sumOf(items.lines.map((t) => t.amount)) }
}

/** A subtotal or total as a table of one emphasised row: label, count, amount. */
function oneRow(cells: readonly string[], key: string): DocumentTable {
  const footer: DocumentRow = { cells, key }
  return {
    caption: null,
    columns: [
      { label: '', align: 'left', width: 6 },
      { label: '', align: 'right', width: 2 },
      { label: '', align: 'right', width: 2 },
    ],
    rows: [],
    footer,
  }
}
