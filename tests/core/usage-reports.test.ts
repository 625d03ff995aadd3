import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { itemisedCallsCsv } from '../../core/delivery/calls-csv.js'
import { emailAttachmentsOf, usageReportProfileOf, usageReportsOf } from '../../core/delivery/email-attachments.js'
import { invoiceEmailText } from '../../core/delivery/invoice-email.js'
import { usageSummaryCsv } from '../../core/delivery/usage-summary-csv.js'
import { csvText } from '../../core/documents/csv-cells.js'
import type { DocumentCall } from '../../core/documents/invoice-sources.js'
import { formatMoney, parseMoney, sum } from '../../core/money/money.js'
import { defaultPresets } from '../../core/presets/presets.js'

const test = suite('core: usage reports of invoice emails (summary CSV, profiles)')
const m = (s: string) => parseMoney(s)!

let next = 0
const call = (numberID: string | null, callType: DocumentCall['callType'], durationSeconds: number | null, cost: string | null): DocumentCall => ({
  id: String(++next),
  numberID,
  transactionID: 't',
  startTime: `2026-01-0${(next % 9) + 1}T09:00:00.000Z` as never,
  dialledNumber: '01632 960000',
  callType,
  chargeBand: 'NAT',
  durationSeconds,
  ratedDuration: durationSeconds,
  cost: cost === null ? null : m(cost),
})

const numbers = [
  { id: 'n1', number: '0161 496 0101', description: null, displayWith: null, shortBillPages: null, longBillPages: null },
  { id: 'n2', number: '0161 496 0100', description: null, displayWith: null, shortBillPages: null, longBillPages: null },
  { id: 'n3', number: 'Sales, "North"', description: null, displayWith: null, shortBillPages: null, longBillPages: null },
]

test('the summary: one line per number and call class, in order, with exact sums and a total; RFC 4180 with CRLF', () => {
  const calls = [
    // Three tenths-of-a-penny costs: summed as numbers they would not come to 0.0999 exactly.
    call('n1', 'national', 61, '0.0333'),
    call('n1', 'mobile', 30, '0.1000'),
    call('n1', 'national', 59, '0.0333'),
    call('n2', 'national', 600, '1.2345'),
    call('n1', 'national', 1, '0.0333'),
    call('n3', 'international', 10, '0.0001'),
    call(null, null, null, null),
    call('n2', 'national', 5, '-0.0100'),
  ]
  const csv = usageSummaryCsv({ calls, numbers })
  assert.ok(csv.endsWith('\r\n') && !csv.replace(/\r\n/g, '').includes('\n'), 'CRLF line ends')
  assert.equal(csv.split('\r\n'), [
    'number,callType,calls,durationSeconds,cost',
    '0161 496 0100,national,2,605,1.2245',
    '0161 496 0101,mobile,1,30,0.1000',
    '0161 496 0101,national,3,121,0.0999',
    '"Sales, ""North""",international,1,10,0.0001',
    ',,1,0,0.0000',
    'Total,,8,766,1.4245',
    '',
  ])
  assert.is(usageSummaryCsv({ calls: [], numbers }), 'number,callType,calls,durationSeconds,cost\r\nTotal,,0,0,0.0000\r\n', 'no calls: the total alone')
  // The summary's total reconciles with the itemised file's cost column.
  const itemised = itemisedCallsCsv({ calls, numbers }).trim().split('\r\n').slice(1)
  assert.is(formatMoney(sum(itemised.map((line) => m(line.split(',').at(-1) || '0')))), '1.4245')
})

// Text a client stored that a spreadsheet would run as a formula (OWASP CSV injection).
const HOSTILE = { number: '=HYPERLINK("http://evil","x")', dialled: "+cmd|' /C calc'!A0", callType: '@SUM(1)', band: '-SUM(1)' }

test('the calls CSVs neutralise text a spreadsheet would run (a leading =, +, -, @, tab, CR gets a \'), and keep a credit\'s cost numeric', () => {
  const numbers = [{ id: 'h', number: HOSTILE.number, description: null, displayWith: null, shortBillPages: null, longBillPages: null }, { id: 't', number: '\tTAB', description: null, displayWith: null, shortBillPages: null, longBillPages: null }]
  const calls = [
    { ...call('h', HOSTILE.callType as never, 60, '-21.00'), startTime: '2026-01-05T09:00:00.000Z' as never, dialledNumber: HOSTILE.dialled, chargeBand: HOSTILE.band },
    { ...call('t', 'national', 5, '0.0100'), startTime: '2026-01-06T09:00:00.000Z' as never, dialledNumber: '\r=1+1', chargeBand: 'NAT' },
  ]
  assert.equal(itemisedCallsCsv({ calls, numbers }).split('\r\n').slice(1), [
    `2026-01-05T09:00:00.000Z,"'=HYPERLINK(""http://evil"",""x"")",'+cmd|' /C calc'!A0,'@SUM(1),'-SUM(1),60,60,-21.0000`,
    `2026-01-06T09:00:00.000Z,'\tTAB,"'\r=1+1",national,NAT,5,5,0.0100`,
    '',
  ])
  assert.equal(usageSummaryCsv({ calls, numbers }).split('\r\n').slice(1), [
    `'\tTAB,national,1,5,0.0100`,
    `"'=HYPERLINK(""http://evil"",""x"")",'@SUM(1),1,60,-21.0000`,
    'Total,,2,65,-20.9900',
    '',
  ])
})

test('csvText: a cell read back (RFC 4180) is the text, with a \' before it exactly when it starts as a formula would', () => {
  const unquote = (cell: string) => (cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell)
  const text = fc.oneof(fc.string(), fc.tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '"', ',', '\n', "'"), fc.oneof(fc.string(), fc.stringMatching(/^[0-9 ()]{0,12}$/))).map(([a, b]) => a + b))
  fc.assert(
    fc.property(text, (s) => {
      const cell = csvText(s)
      const formula = /^[=+\-@\t\r]/.test(s) && !/^[0-9 +\-().]+$/.test(s)
      assert.is(unquote(cell), formula ? `'${s}` : s)
      assert.is(cell.startsWith('"'), /[",\r\n]/.test(s))
    }),
  )
  assert.is(csvText(null), '')
  // A telephone number or a signed figure calls nothing: left as it is.
  for (const plain of ['+44 (0)20 7946-0000', '-20.5', '+1.5']) assert.is(csvText(plain), plain)
})

test('profiles: the contact\'s own, else the customer\'s; unset or unknown names are Itemised; None attaches no usage report', () => {
  assert.is(usageReportProfileOf('Summary', 'None'), 'None')
  assert.is(usageReportProfileOf('Summary', null), 'Summary')
  assert.is(usageReportProfileOf('Summary'), 'Summary')
  assert.is(usageReportProfileOf(null, null), null)
  assert.equal(usageReportsOf(null), ['itemised'])
  assert.equal(usageReportsOf('Quarterly Breakdown'), ['itemised'], 'a name an operator added behaves as Itemised')
  assert.equal(usageReportsOf('toString'), ['itemised'], 'not an inherited property')
  for (const name of defaultPresets.lists.usageReportProfiles) assert.ok(Array.isArray(usageReportsOf(name)), name)
  assert.equal(emailAttachmentsOf('PDF + CSV', null), ['pdf', 'itemised'])
  assert.equal(emailAttachmentsOf('PDF + CSV', 'Itemised + Summary'), ['pdf', 'itemised', 'summary'])
  assert.equal(emailAttachmentsOf('CSV', 'Summary'), ['summary'])
  assert.equal(emailAttachmentsOf('CSV', 'None'), [])
  assert.equal(emailAttachmentsOf('PDF + CSV', 'None'), ['pdf'])
  assert.equal(emailAttachmentsOf('PDF', 'Itemised + Summary'), ['pdf'], 'the bill type decides whether a CSV goes')
  assert.equal(emailAttachmentsOf('Summary Only', 'Summary'), [])
})

test('the email says what is attached, and that nothing is when a CSV bill type has no usage report', () => {
  const invoice = { id: '7', invoiceNumber: 'INV-7', totalAmount: m('12.00'), netAmount: m('10.00'), VATAmount: m('2.00'), amountOutstanding: m('12.00'), invoiceDate: '2026-01-31', dueDate: '2026-02-14' } as never
  const customer = { currency: 'GBP', accountNumber: 'A-1' }
  const text = (billType: 'CSV' | 'PDF + CSV' | 'Summary Only', profile: string | null) => invoiceEmailText(defaultPresets.seller, invoice, customer, billType, emailAttachmentsOf(billType, profile)).text
  assert.match(text('PDF + CSV', 'Itemised + Summary'), 'Attached: the invoice (PDF), the itemised calls (CSV) and the calls summary (CSV).')
  assert.match(text('CSV', 'Summary'), 'Attached: the calls summary (CSV).')
  assert.match(text('PDF + CSV', null), 'Attached: the invoice (PDF) and the itemised calls (CSV).')
  const none = text('CSV', 'None')
  assert.not.match(none, 'Attached')
  assert.match(none, 'Nothing is attached')
  assert.match(none, 'Net: £10.00')
  assert.match(text('Summary Only', null), 'This is a summary; ask us for the full invoice.')
})

test.run()
