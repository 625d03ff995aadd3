import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { csvRecordBatches, parsedRecordBatches, type CsvReadOptions } from '../../adapters/csv/csv-records.js'

const test = suite('adapters/csv: text without quotes is split as csv-parse reads it')

type Reading = { records: { fields: unknown[]; line: number }[] } | { error: string }

/** All records of the text cut into pieces at `cuts`, or the error it fails with. */
async function reading(batches: (pieces: string[]) => AsyncIterable<{ fields: unknown[]; line: number }[]>, text: string, cuts: readonly number[]): Promise<Reading> {
  // Never inside a surrogate pair: text decoded as it streams in comes in whole characters.
  const whole = (c: number) => (/[\udc00-\udfff]/.test(text[c] ?? '') ? c + 1 : c)
  const at = [...new Set(cuts.map((c) => whole(c % (text.length + 1))))].sort((a, b) => a - b)
  const pieces = [0, ...at].map((from, i, all) => text.slice(from, all[i + 1] ?? text.length))
  const records: { fields: unknown[]; line: number }[] = []
  try {
    for await (const batch of batches(pieces)) records.push(...batch)
    return { records }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

const both = (options: CsvReadOptions<unknown>) => ({
  split: (pieces: string[]) => csvRecordBatches(pieces, options),
  parsed: (pieces: string[]) => parsedRecordBatches(toAsync(pieces), options, 1, true),
})

async function* toAsync(pieces: string[]): AsyncGenerator<string> {
  yield* pieces
}

const unit = fc.constantFrom('a', '7', ',', ',', ' ', '\n', '\n', '\r', '\r\n', 'é', '\uFEFF', '😀')
const quoteFree = fc.string({ unit, maxLength: 40 })
// csv-parse counts a lone CR as a line in the line its errors name (not in its records' lines),
// so text that can fail has none.
const noLoneCr = (quote: boolean) => fc.string({ unit: fc.constantFrom('a', ',', ' ', '\n', '\r\n', 'é', ...(quote ? ['"', '"'] : [])), maxLength: 40 })
const cuts = fc.array(fc.nat(), { maxLength: 6 })
const castNulls = (value: string, quoted: boolean) => (value === '' && !quoted ? null : value)

test('records, fields and lines of quote-free text are csv-parse\'s, however the text is cut', async () => {
  for (const options of [{}, { skipEmptyLines: true }, { cast: castNulls }]) {
    const { split, parsed } = both(options)
    await fc.assert(
      fc.asyncProperty(quoteFree, cuts, async (text, at) => {
        assert.equal(await reading(split, text, at), await reading(parsed, text, at))
      }),
      { numRuns: 300 },
    )
  }
})

test('text with quotes somewhere reads as csv-parse reads it, records, lines and errors alike', async () => {
  const { split, parsed } = both({ skipEmptyLines: true })
  // Quote-free lines first, so that csv-parse takes over mid-text, on a later line.
  await fc.assert(
    fc.asyncProperty(noLoneCr(false), noLoneCr(true), cuts, async (head, tail, at) => {
      const text = head + tail
      assert.equal(await reading(split, text, at), await reading(parsed, text, at))
    }),
    { numRuns: 500 },
  )
})

test('csv-parse taking over names the line of a bad quote counted from the start of the text', async () => {
  const text = 'a,b\r\nc,d\n\ne,f\ng,h"i\n'
  const failed = await reading((pieces) => csvRecordBatches(pieces), text, [5, 12])
  assert.equal(failed, { error: 'line 5: Invalid Opening Quote: a quote is found on field 1, value is "h"' })
})

test('a BOM is dropped only at the start of the text', async () => {
  const { split } = both({})
  assert.equal(await reading(split, '\uFEFFa,b\n\uFEFFc', [1, 2]), {
    records: [
      { fields: ['a', 'b'], line: 1 },
      { fields: ['\uFEFFc'], line: 2 },
    ],
  })
})

test('a line over many pieces is one record, read on from where the pieces before it ended', async () => {
  const long = 'x'.repeat(1000)
  const pieces = ['a,', ...Array.from({ length: 300 }, () => long), ',b\r', '\nc,d']
  const records: { fields: string[]; line: number }[] = []
  for await (const batch of csvRecordBatches(pieces)) records.push(...batch)
  assert.equal(records, [
    { fields: ['a', long.repeat(300), 'b'], line: 1 },
    { fields: ['c', 'd'], line: 2 },
  ])
})

test.run()
