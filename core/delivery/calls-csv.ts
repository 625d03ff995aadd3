import type { InvoiceSources } from '../documents/invoice-sources.js'
import { csvNumeric, csvText } from '../documents/csv-cells.js'
import { formatMoney } from '../money/money.js'

/**
 * The invoice's itemised calls as CSV (RFC 4180, CRLF), the attachment of the `PDF + CSV` and
 * `CSV` bill types (contract 14.2): one line a call, in start order, with its number. The
 * number, dialled number, call type and charge band are text (`csvText`: neutralised for
 * spreadsheets); the time, durations and cost are written as they are.
 */
export function itemisedCallsCsv(s: Pick<InvoiceSources, 'calls' | 'numbers'>): string {
  const numbers = new Map(s.numbers.map((n) => [n.id, n.number ?? '']))
  const lines = [['startTime', 'number', 'dialledNumber', 'callType', 'chargeBand', 'durationSeconds', 'ratedDuration', 'cost'].join(',')]
  const calls = [...s.calls].sort((a, b) => (a.startTime ?? '').localeCompare(b.startTime ?? '') || Number(a.id) - Number(b.id))
  for (const c of calls) {
    const cells = [
      csvNumeric(c.startTime),
      csvText(c.numberID ? numbers.get(c.numberID) : null),
      csvText(c.dialledNumber),
      csvText(c.callType),
      csvText(c.chargeBand),
      csvNumeric(c.durationSeconds),
      csvNumeric(c.ratedDuration),
      csvNumeric(c.cost === null ? null : formatMoney(c.cost)),
    ]
    lines.push(cells.join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}
