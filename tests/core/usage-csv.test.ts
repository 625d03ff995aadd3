import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { usageLines } from '../../adapters/csv/usage-lines.js'
import { parseDatetime, toStamp } from '../../core/dates/stamp.js'
import { BillingError } from '../../core/errors.js'
import { callClasses } from '../../core/fields/call-classes.js'
import { formatMoney, parseMoney, type Money } from '../../core/money/money.js'
import { UsageFileReader } from '../../core/rating/usage-file-reader.js'
import { usageFingerprint } from '../../core/rating/usage-fingerprint.js'
import { originations, parseStartTime, parseUsageHeader, parseUsageRow, usageColumns, type UsageRecord } from '../../core/rating/usage-record.js'

const test = suite('core/usage csv (read through the csv-parse adapter)')

const HEADER = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'

/** A CSV line as RFC 4180 writes it (the tests' writer; the platform only reads CSV). */
const formatCsvLine = (fields: readonly string[]): string => fields.map((f) => (/[",\r\n]|^\s|\s$/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(',')

/** The records of a text cut into pieces of `chunk` characters, as the CSV adapter gives them to the importer. */
async function records(text: string, chunk = 7) {
  const pieces: string[] = []
  for (let i = 0; i < text.length; i += chunk) pieces.push(text.slice(i, i + chunk))
  const out: { fields: readonly string[]; line: number }[] = []
  for await (const batch of usageLines(pieces)) out.push(...batch)
  return out
}

/** Reads a whole file through the CSV adapter and the reader, as the import does. */
async function read(text: string): Promise<UsageRecord[]> {
  const reader = new UsageFileReader()
  const out: UsageRecord[] = []
  for (const line of await records(text)) {
    const r = reader.read(line)
    if (r) out.push(r)
  }
  reader.finish()
  return out
}

/** The error a file gives, asserting it is an `invalid_field` BillingError with a hint that says what to do. */
async function refusal(text: string): Promise<BillingError> {
  try {
    await read(text)
  } catch (e) {
    assert.instance(e, BillingError)
    assert.is((e as BillingError).code, 'invalid_field')
    assert.ok(((e as BillingError).hint ?? '').length > 20, `a hint: ${(e as BillingError).hint}`)
    return e as BillingError
  }
  throw new Error('expected the file to be refused')
}
const failure = async (text: string): Promise<string> => (await refusal(text)).message

test('RFC 4180: quotes, escaped quotes, commas and line breaks inside quotes; each record with its first line', async () => {
  assert.equal(await records('a,"b,c","d ""e""",\n""""\n\n  x ,y\r\n"two\nlines",z\nlast'), [
    { fields: ['a', 'b,c', 'd "e"', ''], line: 1 },
    { fields: ['"'], line: 2 },
    { fields: ["  x ", "y"], line: 4 },
    { fields: ['two\nlines', 'z'], line: 5 },
    { fields: ['last'], line: 7 },
  ])
  assert.match(await failure(`${HEADER}\n01632960000,"0207,x\n\nmore`), /^line \d: a quoted field is not closed/)
  assert.match(await failure(`${HEADER}\na,b"c,d`), /^line 2: Invalid Opening Quote/)
})

test('generated fields written as RFC 4180 CSV read back as they were, however the text is cut', async () => {
  const field = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ',', '"', 'é', '-', '+', ';', '\n', '\r\n') }).map((f) => f.trim())
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(field, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 9 }), async (rows, chunk) => {
      const text = rows.map(formatCsvLine).join('\r\n')
      const back = await records(text, chunk)
      assert.equal(back.map((r) => r.fields), rows)
    }),
  )
})

test('records come in batches, a piece of text\'s at a time, and the text is read only as fast as batches are taken', async () => {
  const line = (n: number) => `0161496000${n % 10},07700900${String(n % 1000).padStart(3, '0')},2026-01-14T10:00:00Z,60,MOB,mobile,Gamma\n`
  const PIECES = 400
  const PER_PIECE = 100
  let read = 0
  function* pieces() {
    yield `${HEADER}\n`
    for (let p = 0; p < PIECES; p++) {
      read++
      let text = ''
      for (let i = 0; i < PER_PIECE; i++) text += line(p * PER_PIECE + i)
      yield text
    }
  }
  const batches = usageLines(pieces())
  const first = await batches.next()
  assert.ok(!first.done && first.value.length >= 1, 'a first batch')
  // The parser holds a few pieces' records at most: the rest of the text is not read yet.
  assert.ok(read < 20, `read ${read} of ${PIECES} pieces for the first batch`)
  let records = first.value.length
  let lastLine = first.value.at(-1)!.line
  let count = 1
  for await (const batch of batches) {
    assert.ok(batch.length > 0, 'no empty batch')
    assert.is(batch[0].line, lastLine + 1, 'lines run on from batch to batch')
    records += batch.length
    lastLine = batch.at(-1)!.line
    count++
  }
  assert.is(records, 1 + PIECES * PER_PIECE, 'the header and every record')
  // At most a batch a piece (the header is a piece of its own): no record waits for a batch of its own.
  assert.ok(count <= PIECES + 1, `${count} batches for ${PIECES + 1} pieces`)
})

test('a source that fails after some pieces fails the batches, after the records read before it', async () => {
  async function* pieces() {
    yield `${HEADER}\n01614960001,07700900001,2026-01-14T10:00:00Z,60,MOB,mobile,Gamma\n01614960002,07700900002,2026-01-14T10:00:00Z,60,MOB,mobile,Gamma\n`
    await new Promise((resolve) => setImmediate(resolve))
    throw new Error('the connection dropped')
  }
  const seen: number[] = []
  try {
    for await (const batch of usageLines(pieces())) seen.push(...batch.map((r) => r.line))
    assert.unreachable('the failure was not passed on')
  } catch (error) {
    assert.is((error as Error).message, 'the connection dropped')
  }
  // Every line that ended before the failure was read.
  assert.equal(seen, [1, 2, 3])
})

test('a line past 16,384 characters is refused on its line, quoted or not, however the text is cut; shorter ones are read', async () => {
  const refusal = async (text: string, chunk: number) => {
    try {
      await records(text, chunk)
      return null
    } catch (e) {
      return e instanceof BillingError ? `${e.code} ${e.message}` : String(e)
    }
  }
  const row = '01632960001,07700900123,2026-01-14T10:00:00Z,61,MOB,mobile,'
  for (const chunk of [7, 1000, 65_536]) {
    assert.is(await refusal(`${HEADER}\n${row}${'x'.repeat(40_000)}\n`, chunk), 'invalid_field line 2: the line is longer than 16384 characters', `unquoted, pieces of ${chunk}`)
    assert.is(await refusal(`${HEADER}\n${row}"${'x'.repeat(40_000)}"\n`, chunk), 'invalid_field line 2: the line is longer than 16384 characters', `quoted, pieces of ${chunk}`)
    assert.is(await refusal(`${'x'.repeat(40_000)}`, chunk), 'invalid_field line 1: the line is longer than 16384 characters', `no line break at all, pieces of ${chunk}`)
    assert.is(await refusal(`${HEADER}\n${row}${'x'.repeat(16_000)}\n`, chunk), null, 'a long line within the bound is read')
  }
})

test('a semicolon- or tab-separated file is named as such, with what to do', async () => {
  const semicolons = await refusal(`${HEADER.replaceAll(',', ';')}\n01632960000;02079460000`)
  assert.match(semicolons.message, /^line 1: the header is one column holding ";": the file looks separated by ";", not by commas/)
  assert.match(semicolons.hint ?? '', /comma-separated/)
  assert.match(await failure(`${HEADER.replaceAll(',', '\t')}\n`), /separated by tabs/)
})

test('a well-formed file: header in any order, optional columns, defaults, blank lines skipped', async () => {
  const text = [
    '\uFEFFcarrier,CALLINGNUMBER,dialledNumber,startTime,durationSeconds,chargeBand,callClass,origination,recorded,externalID,wholesaleCost,bytes,events',
    '"Gamma, Ltd","01632 960000",+442079460000,2026-01-05T09:00:00,61.5,UK,Non-Geographic,Mobile,yes,abc-1,0.0123,,',
    '',
    'BT,,01632960000,2026-01-05T09:00:00+01:00,0,UK,inbound,,,,,2048,3\r',
  ].join('\n')
  const [a, b] = await read(text)
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
    lookUpDestination: null,
  })
  assert.is(b.lineNumber, 4)
  assert.is(b.startTime, '2026-01-05T08:00:00.000Z')
  assert.is(b.callingNumber, '')
  assert.equal([b.bytes, b.events, b.origination, b.recorded, b.externalID, b.wholesaleCost], [2048, 3, 'fixed', false, null, null])
  // only the required columns
  assert.is((await read(`${HEADER}\n01632960000,02079460000,2026-01-05T09:00:00Z,60,UK,national,Gamma`))[0].origination, 'fixed')
})

test('bad rows are refused with their line number, the reason and what to do', async () => {
  const ok = '01632960000,02079460000,2026-01-05T09:00:00,60,UK,national,Gamma'
  const file = (bad: string) => `${HEADER}\n${ok}\n\n${bad}`
  assert.match(await failure(file('01632960000,02079460000,2026-01-05T09:00:00,sixty,UK,national,Gamma')), /^line 4: durationSeconds "sixty"/)
  assert.match(await failure(file('01632960000,02079460000,2026-01-05T09:00:00,-1,UK,national,Gamma')), /^line 4: durationSeconds/)
  assert.match(await failure(file('01632960000,02079460000,2026-02-30T09:00:00,60,UK,national,Gamma')), /^line 4: startTime "2026-02-30T09:00:00"/)
  assert.match(await failure(file('01632960000,02079460000,2026-01-05 09:00,60,UK,national,Gamma')), /^line 4: startTime/)
  assert.match(await failure(file('01632960000,02079460000,0026-03-01T10:00:00Z,60,UK,national,Gamma')), /^line 4: startTime "0026-03-01T10:00:00Z" is before 1900/)
  assert.match(await failure(file('01632960000,02079460000,1900-01-01T00:30:00+01:00,60,UK,national,Gamma')), /^line 4: startTime "1900-01-01T00:30:00\+01:00" is before 1900/)
  assert.is((await read(file('01632960000,02079460000,1900-01-01T00:00:00Z,60,UK,national,Gamma')))[1].startTime, '1900-01-01T00:00:00.000Z')
  assert.match(await failure(file('01632960000,02079460000,2026-01-05T09:00:00,60,UK,domestic,Gamma')), /^line 4: callClass "domestic" is not one of inbound, national/)
  assert.match(await failure(file('01632960000,02079460000,2026-01-05T09:00:00,60,UK,national')), /^line 4: expected 7 fields, found 6/)
  // An empty band or class is looked up from the dialled number (contract 17.2), which must then be there.
  assert.is((await read(file('01632960000,02079460000,2026-01-05T09:00:00,60,,national,Gamma')))[1].lookUpDestination, 'chargeBand')
  assert.match(await failure(file('01632960000,,2026-01-05T09:00:00,60,UK,,Gamma')), /^line 4: dialledNumber is empty, and chargeBand or callClass must be looked up from it/)
  assert.match(await failure(file(',02079460000,2026-01-05T09:00:00,60,UK,national,Gamma')), /^line 4: callingNumber is empty on an outbound record/)
  assert.match(await failure(file('01632960000,"0207,2026-01-05T09:00:00,60,UK,national,Gamma')), /^line 4: a quoted field is not closed/)
  const extra = `${HEADER},wholesaleCost,bytes,origination,recorded`
  assert.match(await failure(`${extra}\n${ok},1.23456,,,`), /^line 2: wholesaleCost "1.23456"/)
  assert.match(await failure(`${extra}\n${ok},,1.5,,`), /^line 2: bytes "1.5" is not a whole non-negative number/)
  assert.match(await failure(`${extra}\n${ok},,,satellite,`), /^line 2: origination "satellite"/)
  assert.match(await failure(`${extra}\n${ok},,,,maybe`), /^line 2: recorded "maybe"/)
})

test('bad headers are refused on their line', async () => {
  assert.match(await failure(`${HEADER},colour\nx`), /^line 1: unknown column "colour"/)
  assert.match(await failure(`${HEADER},carrier`), /^line 1: column "carrier" appears twice/)
  assert.match(await failure('callingNumber,dialledNumber,startTime'), /^line 1: missing required columns durationSeconds, carrier/)
  assert.match(await failure(`\n\n${HEADER},"bytes`), /^line 3: a quoted field is not closed/)
  assert.match(await failure(''), /empty/)
})

const usageRecords: fc.Arbitrary<UsageRecord> = fc.record({
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
  lookUpDestination: fc.constant(null),
})

const cell = (r: UsageRecord, c: (typeof usageColumns)[number]): string => {
  const v = r[c]
  if (v === null) return ''
  if (c === 'wholesaleCost') return formatMoney(v as Money)
  return String(v)
}

test('a generated usage file parses back to the records it was written from', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(usageRecords, { minLength: 1, maxLength: 8 }), fc.shuffledSubarray([...usageColumns], { minLength: usageColumns.length }), async (rs, columns) => {
      const lines = [formatCsvLine(columns), ...rs.map((r) => formatCsvLine(columns.map((c) => cell(r, c))))]
      const back = await read(lines.join('\r\n'))
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
  const header = parseUsageHeader(`${HEADER},externalID`.split(','))
  const row = (line: string, n = 2) => parseUsageRow(header, line.split(','), n)
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
  // The carrier as carriers' names compare (sameCarrier): case and surrounding spaces aside.
  assert.is(usageFingerprint(x), usageFingerprint(row('01632 960000,020-7946-0000,2026-01-05T09:00:00,60,UK,national, GAMMA ,R-1')))
  assert.is(usageFingerprint(a), usageFingerprint(row('01632 960000,020-7946-0000,2026-01-05T09:00:00,60,UK,national,gamma,')))
})

test.run()
