import type { InvoiceSources } from '../documents/invoice-sources.js'
import { csvLine, csvNumeric, csvText } from '../documents/csv-cells.js'
import { add, formatMoney, ZERO, type Money } from '../money/money.js'

interface Totals {
  calls: number
  seconds: number
  cost: Money
}

/**
 * The invoice's calls summed per number and call class (`callType`, the class the Calls by Type
 * page groups by), as CSV (RFC 4180, CRLF): the `Summary` usage report (`usageReportProfiles`),
 * attached instead of or beside the itemised calls. Its columns are the sums of the itemised
 * CSV's (`durationSeconds` the calls' own, `cost` exact), so the two files reconcile; numbers in
 * character order, calls on no number last; then a `Total` line.
 */
export function usageSummaryCsv(s: Pick<InvoiceSources, 'calls' | 'numbers'>): string {
  const numbers = new Map(s.numbers.map((n) => [n.id, n.number ?? '']))
  const groups = new Map<string, { number: string; callType: string; totals: Totals }>()
  const total: Totals = { calls: 0, seconds: 0, cost: ZERO }
  for (const c of s.calls) {
    const number = c.numberID ? (numbers.get(c.numberID) ?? '') : ''
    const callType = c.callType ?? ''
    const key = JSON.stringify([number, callType])
    const group = groups.get(key) ?? { number, callType, totals: { calls: 0, seconds: 0, cost: ZERO } }
    groups.set(key, group)
    for (const t of [group.totals, total]) {
      t.calls++
      t.seconds += c.durationSeconds ?? 0
      t.cost = add(t.cost, c.cost ?? ZERO)
    }
  }
  const rows = [...groups.values()].sort((a, b) => (a.number === '' ? 1 : 0) - (b.number === '' ? 1 : 0) || compare(a.number, b.number) || compare(a.callType, b.callType))
  // The number and call type are text (neutralised for spreadsheets); counts, seconds and the cost's exact text numeric (a credit's `-` kept).
  const line = (number: string, callType: string, t: Totals) => `${csvText(number)},${csvText(callType)},${t.calls},${t.seconds},${csvNumeric(formatMoney(t.cost))}\r\n`
  const lines = [csvLine(['number', 'callType', 'calls', 'durationSeconds', 'cost']), ...rows.map((r) => line(r.number, r.callType, r.totals)), line('Total', '', total)]
  return lines.join('')
}

/** Plain character order: the same on every machine, whatever its locale. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
