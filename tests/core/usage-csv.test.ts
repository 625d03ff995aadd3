import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parseDatetime, toStamp } from '../../core/dates/stamp.js'
import { BillingError } from '../../core/errors.js'
import { callClasses } from '../../core/fields/call-classes.js'
import { formatMoney, parseMoney, type Money } from '../../core/money/money.js'
import { formatCsvLine, parseCsvLine } from '../../core/rating/csv-line.js'
import { UsageFileReader } from '../../core/rating/usage-file-reader.js'
import { usageFingerprint } from '../../core/rating/usage-fingerprint.js'
import { originations, parseStartTime, parseUsageHeader, parseUsageRow, usageColumns, type UsageRecord } from '../../core/rating/usage-record.js'

const test = suite('core/usage csv')

const HEADER = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'

/** Reads a whole file through the line reader, as the import does. */
function read(text: string): UsageRecord[] {
  const reader = new UsageFileReader()
  const out: UsageRecord[] = []
  for (const line of text.split('\n')) {
    const r = reader.read(line)
    if (r) out.push(r)
  }
  reader.finish()
  return out
}

/** The error message a file gives, asserting it is an `invalid_field` BillingError. */
function failure(text: string): string {
  try {
    read(text)
  } catch (e) {
    assert.instance(e, BillingError)
    assert.is((e as BillingError).code, 'invalid_field')
    return (e as BillingError).message
  }
  throw new Error('expected the file to be refused')
}

test('quotes, escaped quotes and commas inside quotes', () => {
  assert.equal(parseCsvLine('a,"b,c","d ""e""",'), ['a', 'b,c', 'd "e"', ''])
  assert.equal(parseCsvLine(''), [''])
  assert.equal(parseCsvLine('""'), [''])
  assert.equal(parseCsvLine('"x" , "y"\r'), ['x', 'y'])
  assert.equal(parseCsvLine(' a , b'), [' a ', ' b'])
  assert.equal(parseCsvLine('""""'), ['"'])
  assert.throws(() => parseCsvLine('a,"b', 7), /line 7: unclosed quoted field/)
  assert.throws(() => parseCsvLine('a,b"c'), /quote inside an unquoted field/)
  assert.throws(() => parseCsvLine('"a"b'), /text after a closing quote/)
  assert.is(formatCsvLine(['a', 'b,c', 'd "e"', ' pad', '']), 'a,"b,c","d ""e"""," pad",')
})

test('the CSV line parser round-trips generated fields', () => {
  const field = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '\t', ',', '"', 'é', '-', '+', ';') })
  fc.assert(fc.property(fc.array(field, { minLength: 1, maxLength: 12 }), (fields) => {
    assert.equal(parseCsvLine(formatCsvLine(fields)), fields)
  }))
})

test('a well-formed file: header in any order, optional columns, defaults, blank lines skipped', () => {
  const text = [
    '\uFEFFcarrier,CALLINGNUMBER,dialledNumber,startTime,durationSeconds,chargeBand,callClass,origination,recorded,externalID,wholesaleCost,bytes,events',
    '"Gamma, Ltd","01632 960000",+442079460000,2026-01-05T09:00:00,61.5,UK,Non-Geographic,Mobile,yes,abc-1,0.0123,,',
    '',
    'BT,,01632960000,2026-01-05T09:00:00+01:00,0,UK,inbound,,,,,2048,3\r',
  ].join('\n')
  const [a, b] = read(text)
  assert.equal(a, {
    lineNumber: 2,
    callingNumber: '01632 960000',
    dialledNumber: '+442079460000',
    startTime: '2026-01-05T09:00:00.000Z',
    durationSeconds: 61.5,
    chargeBand: 'UK',
    callClass: 'nongeographic',
    carrier: 'Gamma, Ltd',
    bytes: null,
    events: null,
    origination: 'mobile',
    recorded: true,
    externalID: 'abc-1',
    wholesaleCost: parseMoney('0.0123'),
  })
  assert.is(b.lineNumber, 4)
  assert.is(b.startTime, '2026-01-05T08:00:00.000Z')
  assert.is(b.callingNumber, '')
  assert.equal([b.bytes, b.events, b.origination, b.recorded, b.externalID, b.wholesaleCost], [2048, 3, 'fixed', false, null, null])
  // only the required columns
  assert.is(read(`${HEADER}\n01632960000,02079460000,2026-01-05T09:00:00Z,60,UK,national,Gamma`)[0].origination, 'fixed')
})

test('bad rows are refused with their line number and the reason', () => {
  const ok = '01632960000,02079460000,2026-01-05T09:00:00,60,UK,national,Gamma'
  const file = (bad: string) => `${HEADER}\n${ok}\n\n${bad}`
  assert.match(failure(file('01632960000,02079460000,2026-01-05T09:00:00,sixty,UK,national,Gamma')), /^line 4: durationSeconds "sixty"/)
  assert.match(failure(file('01632960000,02079460000,2026-01-05T09:00:00,-1,UK,national,Gamma')), /^line 4: durationSeconds/)
  assert.match(failure(file('01632960000,02079460000,2026-02-30T09:00:00,60,UK,national,Gamma')), /^line 4: startTime "2026-02-30T09:00:00"/)
  assert.match(failure(file('01632960000,02079460000,2026-01-05 09:00,60,UK,national,Gamma')), /^line 4: startTime/)
  assert.match(failure(file('01632960000,02079460000,2026-01-05T09:00:00,60,UK,domestic,Gamma')), /^line 4: callClass "domestic" is not one of inbound, national/)
  assert.match(failure(file('01632960000,02079460000,2026-01-05T09:00:00,60,UK,national')), /^line 4: expected 7 fields, found 6/)
  assert.match(failure(file('01632960000,02079460000,2026-01-05T09:00:00,60,,national,Gamma')), /^line 4: chargeBand is empty/)
  assert.match(failure(file(',02079460000,2026-01-05T09:00:00,60,UK,national,Gamma')), /^line 4: callingNumber is empty on an outbound record/)
  assert.match(failure(file('01632960000,"0207,2026-01-05T09:00:00,60,UK,national,Gamma')), /^line 4: unclosed quoted field/)
  const extra = `${HEADER},wholesaleCost,bytes,origination,recorded`
  assert.match(failure(`${extra}\n${ok},1.23456,,,`), /^line 2: wholesaleCost "1.23456"/)
  assert.match(failure(`${extra}\n${ok},,1.5,,`), /^line 2: bytes "1.5" is not a whole non-negative number/)
  assert.match(failure(`${extra}\n${ok},,,satellite,`), /^line 2: origination "satellite"/)
  assert.match(failure(`${extra}\n${ok},,,,maybe`), /^line 2: recorded "maybe"/)
})

test('bad headers are refused on their line', () => {
  assert.match(failure(`${HEADER},colour\nx`), /^line 1: unknown column "colour"/)
  assert.match(failure(`${HEADER},carrier`), /^line 1: column "carrier" appears twice/)
  assert.match(failure('callingNumber,dialledNumber,startTime'), /^line 1: missing required columns durationSeconds, chargeBand, callClass, carrier/)
  assert.match(failure(`\n\n${HEADER},"bytes`), /^line 3: unclosed quoted field/)
  assert.match(failure(''), /empty/)
})

const records: fc.Arbitrary<UsageRecord> = fc.record({
  lineNumber: fc.constant(2),
  callingNumber: fc.stringMatching(/^\+?[0-9][0-9 -]{0,14}[0-9]$/),
  dialledNumber: fc.stringMatching(/^[0-9][0-9 -]{0,14}[0-9]$/),
  startTime: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) }).map((ms) => toStamp(ms - (ms % 1000))),
  durationSeconds: fc.integer({ min: 0, max: 999_999_999 }).map((ms) => ms / 1000),
  chargeBand: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s !== '' && !/[\r\n]/.test(s)),
  callClass: fc.constantFrom(...callClasses.map((c) => c.key)),
  carrier: fc.constantFrom('Gamma', 'BT Wholesale', 'Colt, "Europe"'),
  bytes: fc.option(fc.integer({ min: 0, max: 2 ** 40 }), { nil: null }),
  events: fc.option(fc.nat(), { nil: null }),
  origination: fc.constantFrom(...originations),
  recorded: fc.boolean(),
  externalID: fc.option(fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/), { nil: null }),
  wholesaleCost: fc.option(fc.bigInt({ min: -(10n ** 8n), max: 10n ** 8n }).map((u) => u as Money), { nil: null }),
})

const cell = (r: UsageRecord, c: (typeof usageColumns)[number]): string => {
  const v = r[c]
  if (v === null) return ''
  if (c === 'wholesaleCost') return formatMoney(v as Money)
  return String(v)
}

test('a generated usage file parses back to the records it was written from', () => {
  fc.assert(
    fc.property(fc.array(records, { minLength: 1, maxLength: 8 }), fc.shuffledSubarray([...usageColumns], { minLength: usageColumns.length }), (rs, columns) => {
      const lines = [formatCsvLine(columns), ...rs.map((r) => formatCsvLine(columns.map((c) => cell(r, c))))]
      const back = read(lines.join('\r\n'))
      assert.equal(back, rs.map((r, i) => ({ ...r, lineNumber: i + 2 })))
    }),
  )
})

test('start times in the carriers\' plain form read as the general datetime parse reads them', () => {
  const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'))
  const plain = fc
    .tuple(fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')), two, two, two, two, two, fc.constantFrom('', 'Z', '+01:00', '.5Z'))
    .map(([y, mo, d, h, mi, s, tail]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${tail}`)
  fc.assert(fc.property(fc.oneof(plain, fc.string()), (text) => assert.is(parseStartTime(text), parseDatetime(text), text)), { numRuns: 2000 })
  for (const text of ['2024-02-29T23:59:59Z', '2025-02-29T10:00:00', '2026-01-05T24:00:00', '2026-01-05T09:00:00z']) {
    assert.is(parseStartTime(text), parseDatetime(text), text)
  }
})

test('the fingerprint identifies a record however it is written', () => {
  const header = parseUsageHeader(parseCsvLine(`${HEADER},externalID`))
  const row = (line: string, n = 2) => parseUsageRow(header, parseCsvLine(line), n)
  const a = row('01632 960000,020-7946-0000,2026-01-05T09:00:00,60,UK,national,Gamma,')
  const b = row('+441632960000,02079460000,2026-01-05T10:00:00+01:00,60.000,UK,National,Gamma,', 9)
  assert.is(usageFingerprint(a), usageFingerprint(b))
  assert.is.not(usageFingerprint(a), usageFingerprint(row('01632 960000,020-7946-0000,2026-01-05T09:00:00,61,UK,national,Gamma,')))
  assert.is.not(usageFingerprint(a), usageFingerprint(row('01632 960000,020-7946-0000,2026-01-05T09:00:00,60,UK,national,BT,')))
  // with an external ID the carrier's record ID is the identity
  const x = row('01632 960000,020-7946-0000,2026-01-05T09:00:00,60,UK,national,Gamma,R-1')
  const y = row('01632 960001,020-7946-0000,2026-01-05T09:00:00,75,UK,national,Gamma,R-1')
  assert.is(usageFingerprint(x), usageFingerprint(y))
  assert.is.not(usageFingerprint(x), usageFingerprint(row('01632 960000,020-7946-0000,2026-01-05T09:00:00,60,UK,national,BT,R-1')))
})

test.run()
