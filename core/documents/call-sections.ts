import { callClasses } from '../fields/call-classes.js'
import { add, ZERO, type Money } from '../money/money.js'
import type { NumberShows } from './bill-pages.js'
import { sumOf } from './charge-sections.js'
import { displayCount, displayDuration, displayMoney, displayStamp } from './display.js'
import type { DocumentSection, DocumentTable } from './document-model.js'
import type { DocumentCall, InvoiceSources } from './invoice-sources.js'

const classLabel = new Map<string, string>(callClasses.map((c) => [c.key, c.label]))
/** What a call is charged for: its rated duration, else its own. */
const secondsOf = (c: DocumentCall): number => c.ratedDuration ?? c.durationSeconds ?? 0
const totalSeconds = (calls: readonly DocumentCall[]): number => calls.reduce((t, c) => t + secondsOf(c), 0)

/** The items by their group's key, each group in the items' order. */
export function byKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const list = out.get(k)
    if (list) list.push(item)
    else out.set(k, [item])
  }
  return out
}

/**
 * Call totals per number (contract 10.5), numbers grouped by `displayWith`: each number's calls
 * and duration, and its amount as the invoice charged it (its `Call Charges` lines).
 */
export function callsByNumberSection(s: InvoiceSources, shows: NumberShows, currency: string | null): DocumentSection {
  const page = 'Calls by Number'
  const charged = new Map<string, Money>()
  for (const t of s.transactions) {
    if (t.transactionType !== 'Call Charges') continue
    const key = t.numberID ?? ''
    charged.set(key, add(charged.get(key) ?? ZERO, t.amount ?? ZERO))
  }
  const calls = byKey(s.calls, (c) => c.numberID ?? '')
  const numbers = new Map(s.numbers.map((n) => [n.id, n]))
  const keys = [...new Set([...charged.keys(), ...calls.keys()])].filter((id) => shows(id || null, page))
  const groups = byKey(keys, (id) => numbers.get(id)?.displayWith ?? '')
  const label = (id: string) => numbers.get(id)?.number ?? (id ? `Number ${id}` : 'Other calls')
  const tables = [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)))
    .map(([group, ids]): DocumentTable => {
      const sorted = ids.sort((a, b) => label(a).localeCompare(label(b)))
      const all = sorted.flatMap((id) => calls.get(id) ?? [])
      return {
        caption: group || (groups.size > 1 ? 'Other numbers' : null),
        columns: [
          { label: 'Number', align: 'left', width: 3 },
          { label: 'Description', align: 'left', width: 3 },
          { label: 'Calls', align: 'right', width: 1.2 },
          { label: 'Duration', align: 'right', width: 1.4 },
          { label: 'Amount', align: 'right', width: 1.6 },
        ],
        rows: sorted.map((id) => {
          const mine = calls.get(id) ?? []
          const money = displayMoney(charged.get(id) ?? ZERO, currency)
          return { cells: [label(id), numbers.get(id)?.description ?? '', displayCount(mine.length), displayDuration(totalSeconds(mine)), money] }
        }),
        footer: {
          cells: ['Subtotal', '', displayCount(all.length), displayDuration(totalSeconds(all)), displayMoney(sumOf(sorted.map((id) => charged.get(id) ?? ZERO)), currency)],
        },
      }
    })
  return { page, title: page, tables, note: tables.length ? null : 'No calls on this invoice.' }
}

/** Call totals per call class (contract 10.5): calls, duration and the sum of their costs. */
export function callsByTypeSection(s: InvoiceSources, shows: NumberShows, currency: string | null): DocumentSection {
  const page = 'Calls by Type'
  const shown = s.calls.filter((c) => shows(c.numberID, page))
  const types = [...byKey(shown, (c) => c.callType ?? '').entries()].sort(([a], [b]) => a.localeCompare(b))
  const table: DocumentTable = {
    caption: null,
    columns: [
      { label: 'Call type', align: 'left', width: 4 },
      { label: 'Calls', align: 'right', width: 1.5 },
      { label: 'Duration', align: 'right', width: 1.8 },
      { label: 'Amount', align: 'right', width: 1.8 },
    ],
    rows: types.map(([type, calls]) => ({
      cells: [classLabel.get(type) ?? (type || 'Other'), displayCount(calls.length), displayDuration(totalSeconds(calls)), displayMoney(sumOf(calls.map((c) => c.cost)), currency)],
    })),
    footer: { cells: ['Total', displayCount(shown.length), displayDuration(totalSeconds(shown)), displayMoney(sumOf(shown.map((c) => c.cost)), currency)] },
  }
  return { page, title: page, tables: shown.length ? [table] : [], note: shown.length ? null : 'No calls on this invoice.' }
}

/** Every call (contract 10.5), by number, in the order they were made. */
export function itemisedCallsSection(s: InvoiceSources, shows: NumberShows, currency: string | null): DocumentSection {
  const page = 'Itemised Calls'
  const numbers = new Map(s.numbers.map((n) => [n.id, n]))
  const label = (id: string) => numbers.get(id)?.number ?? (id ? `Number ${id}` : 'Other calls')
  const groups = [...byKey(s.calls.filter((c) => shows(c.numberID, page)), (c) => c.numberID ?? '').entries()].sort(([a], [b]) =>
    label(a).localeCompare(label(b)),
  )
  const tables = groups.map(([id, calls]): DocumentTable => ({
    caption: label(id),
    columns: [
      { label: 'Date', align: 'left', width: 1.9 },
      { label: 'Time', align: 'left', width: 1.3 },
      { label: 'Number dialled', align: 'left', width: 2.5 },
      { label: 'Type', align: 'left', width: 2.3 },
      { label: 'Duration', align: 'right', width: 1.3 },
      { label: 'Cost', align: 'right', width: 1.4 },
    ],
    rows: [...calls]
      .sort((a, b) => (a.startTime ?? '').localeCompare(b.startTime ?? '') || Number(a.id) - Number(b.id))
      .map((c) => {
        const at = displayStamp(c.startTime)
        const type = classLabel.get(c.callType ?? '') ?? c.callType ?? ''
        return { cells: [at.date, at.time, c.dialledNumber ?? '', type, displayDuration(secondsOf(c)), displayMoney(c.cost ?? ZERO, currency)], key: 'call' }
      }),
    footer: { cells: [`${displayCount(calls.length)} calls`, '', '', '', displayDuration(totalSeconds(calls)), displayMoney(sumOf(calls.map((c) => c.cost)), currency)] },
  }))
  return { page, title: page, tables, note: tables.length ? null : 'No calls on this invoice.' }
}
