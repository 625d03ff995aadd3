import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { csvRecordBatches } from '../../adapters/csv/csv-records.js'

const test = suite('adapters/csv: a syntax error names its line, CRLF or LF, line breaks inside quotes or not')

/** The text cut at `cuts`: its records' lines, or the line its error names. */
async function reading(text: string, cuts: readonly number[] = []): Promise<{ lines: number[] } | { error: string }> {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const pieces = [0, ...at].map((from, i, all) => text.slice(from, all[i + 1] ?? text.length))
  const lines: number[] = []
  try {
    for await (const batch of csvRecordBatches(pieces, { skipEmptyLines: true })) lines.push(...batch.map((r) => r.line))
    return { lines }
  } catch (error) {
    return { error: /^line \d+/.exec((error as Error).message)?.[0] ?? (error as Error).message }
  }
}

test('a CRLF inside a quoted field is one line, before the bad record or in it', async () => {
  const header = 'a,b,c'
  for (const nl of ['\n', '\r\n']) {
    // Line 1 the header, lines 2-3 a record with a line break in a quoted field, line 4 a bad quote.
    assert.equal(await reading(`${header}\r\nx,"N${nl}T",y\r\nx,"01"6,y\r\nx,y,z\r\n`), { error: 'line 4' }, JSON.stringify(nl))
    // The bad quote on line 3, after a line break inside the same record.
    assert.equal(await reading(`${header}\r\nx,"N${nl}T","01"6\r\nx,y,z\r\n`), { error: 'line 3' }, JSON.stringify(nl))
  }
  // A lone CR inside quotes is no line break at all: the record's lines do not count it, nor does its error.
  assert.equal(await reading(`${header}\r\nx,"N\rT",y\r\nx,"01"6,y\r\n`), { error: 'line 3' })
  assert.equal(await reading(`${header}\nx,"N\rT",y\nx,y,z\n`), { lines: [1, 2, 3] })
})

test('many records with CRLF inside quotes, read in small pieces: the error after them names its line', async () => {
  const rows = Array.from({ length: 5000 }, (_, i) => `${i},"note\r\nof two lines",x`)
  const text = `a,b,c\r\n${rows.join('\r\n')}\r\n1,"bad"quote,x\r\n`
  const pieces = Array.from({ length: Math.ceil(text.length / 1000) }, (_, i) => (i + 1) * 1000)
  assert.equal(await reading(text, pieces), { error: `line ${2 + 2 * 5000}` })
})

test('a CRLF file fails on the line its LF twin fails on, however the text is cut', async () => {
  const text = fc.string({ unit: fc.constantFrom('a', ',', ' ', '"', '"', '\n', '\r\n', '\r\n'), maxLength: 60 })
  await fc.assert(
    fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 6 }), async (crlf, cuts) => {
      assert.equal(await reading(crlf, cuts), await reading(crlf.replaceAll('\r\n', '\n')))
    }),
    { numRuns: 1000 },
  )
})

test.run()
