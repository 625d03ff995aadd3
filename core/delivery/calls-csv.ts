import type { InvoiceSources } from '../documents/invoice-sources.js'
import { formatMoney } from '../money/money.js'

const quote = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)
/** One CSV line (RFC 4180): a cell with a quote, comma or line break quoted. */
export const csvLine = (cells: readonly string[]): string => cells.map(quote).join(',')

/**
 * The invoice's itemised calls as CSV (RFC 4180, CRLF), the attachment of the `PDF + CSV` and
 * `CSV` bill types (contract 14.2): one line a call, in start order, with its number.
 */
export function itemisedCallsCsv(s: Pick<InvoiceSources, 'calls' | 'numbers'>): string {
  const numbers = new Map(s.numbers.map((n) => [n.id, n.number ?? '']))
  const lines = [['startTime', 'number', 'dialledNumber', 'callType', 'chargeBand', 'durationSeconds', 'ratedDuration', 'cost'].join(',')]
  const calls = [...s.calls].sort((a, b) => (a.startTime ?? '').localeCompare(b.startTime ?? '') || Number(a.id) - Number(b.id))
  for (const c of calls) {
    const cells = [
      c.startTime ?? '',
      c.numberID ? (numbers.get(c.numberID) ?? '') : '',
      c.dialledNumber ?? '',
      c.callType ?? '',
      c.chargeBand ?? '',
      c.durationSeconds === null ? '' : String(c.durationSeconds),
      c.ratedDuration === null ? '' : String(c.ratedDuration),
      c.cost === null ? '' : formatMoney(c.cost),
    ]
    lines.push(csvLine(cells))
  }
  return `${lines.join('\r\n')}\r\n`
}
