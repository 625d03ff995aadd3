import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mergePresets } from '../../core/presets/presets.js'
import { openHarness, type Harness } from '../support/harness.js'
import { quietConsole } from '../support/quiet-console.js'
import { activeTargets } from '../support/targets.js'

// Contract 17.3: a carrier's own file, read through a usageFormats entry.
const presets = mergePresets({
  usageFormats: {
    Semicolons: {
      columns: {
        callingNumber: 'CLI',
        dialledNumber: 'Dialled',
        startTime: ['Call Date', 'Call Time'],
        durationSeconds: 'Duration',
        chargeBand: 'Band',
        callClass: 'Type',
        externalID: 'Ref',
      },
      dateFormat: 'dd/MM/yyyy',
      timeFormat: 'HH:mm:ss',
      duration: 'mm:ss',
      delimiter: ';',
      carrier: 'Gamma',
    },
    // The carrier's cost column read as our wholesaleCost.
    Costed: {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: ['Call Date', 'Call Time'], durationSeconds: 'Duration', chargeBand: 'Band', callClass: 'Type', wholesaleCost: 'Cost' },
      dateFormat: 'dd/MM/yyyy',
      timeFormat: 'HH:mm:ss',
      duration: 'mm:ss',
      delimiter: ';',
      carrier: 'Gamma',
    },
    // Two-digit years and one column holding date and time.
    Piped: {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: 'When', durationSeconds: 'Dur', chargeBand: 'Band', callClass: 'Type' },
      dateFormat: 'dd/MM/yy',
      timeFormat: 'HH:mm',
      delimiter: '|',
      carrier: 'Gamma',
    },
    // Times to the millisecond, in a column of their own or with the date.
    Fractions: {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: ['Date', 'Time'], durationSeconds: 'Dur', chargeBand: 'Band', callClass: 'Type' },
      dateFormat: 'dd/MM/yyyy',
      timeFormat: 'HH:mm:ss.SSS',
      delimiter: ';',
      carrier: 'Gamma',
    },
    FractionsWithDate: {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: 'When', durationSeconds: 'Dur', chargeBand: 'Band', callClass: 'Type' },
      dateFormat: 'dd/MM/yyyy',
      timeFormat: 'HH:mm:ss.SSS',
      delimiter: ';',
      carrier: 'Gamma',
    },
    // Dates as the year and the day of the year (DDD), as some switches write them.
    Ordinal: {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: 'When', durationSeconds: 'Dur', chargeBand: 'Band', callClass: 'Type' },
      dateFormat: 'yyyy-DDD',
      timeFormat: 'HH:mm',
      carrier: 'Gamma',
    },
  },
})
const csvPost = (h: Harness, path: string, body: string) => h.request('POST', path, undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
let serial = 0

async function numberWithTariff(h: Harness) {
  const name = `Fmt${++serial}`
  const t = await h.request('POST', '/tariffs', { name, baseRoundSeconds: 1, baseCostConnection: 0.01 })
  for (const [chargeBand, cost] of [['NAT', '0.05'], ['MOB', '0.12']]) await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand, timeBand: 'any', cost })
  const c = (await h.request('POST', '/customers', { defaultNationalTariff: name, defaultMobileTariff: name })).body.id
  const digits = `016329${String(50000 + serial).padStart(5, '0')}`
  const n = (await h.request('POST', `/customers/${c}/numbers`, { number: digits })).body.id
  return { n: n as string, digits }
}
const calls = async (h: Harness, n: string) =>
  (await h.request('GET', `/numbers/${n}/calls?limit=100`)).body.map((c: any) => [c.callingNumber, c.dialledNumber, c.startTime, c.durationSeconds, c.chargeBand, c.callType, c.carrier, c.cost, c.ratedDuration, c.timeBand])
const count = async (h: Harness) => (await h.request('GET', '/usageFiles?limit=1000')).body.length

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`carrier file formats (contract 17.3) [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { presets })
  })
  test.after(async (ctx) => ctx.h.close())

  test("a semicolon file with dd/MM/yyyy dates and mm:ss durations is rated exactly as the same calls in our format", async ({ h }) => {
    const a = await numberWithTariff(h)
    const b = await numberWithTariff(h)
    // Their file: extra columns they send (Cost) are left out; 14/01 a Wednesday, 17/01 a Saturday.
    const theirs = [
      'CLI;Dialled;Call Date;Call Time;Duration;Band;Type;Ref;Cost',
      `${a.digits};01632960999;14/01/2026;10:00:05;01:01;NAT;national;R1;0.9`,
      `${a.digits};07700900999;14/01/2026;19:30:00;12:00;MOB;Mobile;R2;0.9`,
      `${a.digits};01632960999;17/01/2026;09:15:59;0:59;NAT;national;R3;0.9`,
    ].join('\r\n')
    const ours = [
      'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID',
      `${b.digits},01632960999,2026-01-14T10:00:05Z,61,NAT,national,Gamma,S1`,
      `${b.digits},07700900999,2026-01-14T19:30:00Z,720,MOB,mobile,Gamma,S2`,
      `${b.digits},01632960999,2026-01-17T09:15:59Z,59,NAT,national,Gamma,S3`,
    ].join('\n')
    const r1 = await csvPost(h, '/usageFiles?format=Semicolons', theirs)
    assert.is(r1.status, 201, JSON.stringify(r1.body))
    const r2 = await csvPost(h, '/usageFiles', ours)
    assert.is(r2.status, 201, JSON.stringify(r2.body))
    assert.equal([r1.body.rows, r1.body.rated], [3, 3])
    const strip = (rows: any[][]) => rows.map(([, ...rest]) => rest)
    const fromTheirs = await calls(h, a.n)
    assert.equal(strip(fromTheirs), strip(await calls(h, b.n)))
    // By hand, the first call: 0.01 + 0.05 × 61/60 = 0.060833…, to 4 places 0.0608.
    assert.equal(fromTheirs[0].slice(2, 8), ['2026-01-14T10:00:05.000Z', 61, 'NAT', 'national', 'Gamma', 0.0608])
  })

  test('an unknown format, a date that does not parse, a bad duration, a bad class: 400 naming line and column, nothing stored', async ({ h }) => {
    const { digits } = await numberWithTariff(h)
    const before = await count(h)
    const unknown = await csvPost(h, '/usageFiles?format=Nope', 'a;b\n')
    assert.is(unknown.status, 400)
    assert.is(unknown.body.error_code, 400101)
    assert.match(unknown.body.error, /format "Nope" is not a usageFormats name/)
    const head = 'CLI;Dialled;Call Date;Call Time;Duration;Band;Type;Ref'
    const good = `${digits};01632960999;14/01/2026;10:00:00;01:00;NAT;national;X1`
    for (const [bad, reason] of [
      [`${digits};01632960999;31/02/2026;10:00:00;01:00;NAT;national;X2`, /^line 3: column "Call Date" "31\/02\/2026" is not a date in dd\/MM\/yyyy/],
      [`${digits};01632960999;2026-01-14;10:00:00;01:00;NAT;national;X2`, /^line 3: column "Call Date"/],
      // yyyy is four digits: date-fns alone reads 26 as the year 26; a date matches its pattern exactly.
      [`${digits};01632960999;01/03/26;10:00:00;01:00;NAT;national;X2`, /^line 3: column "Call Date" "01\/03\/26" is not a date in dd\/MM\/yyyy \(it reads as 01\/03\/0026\)$/],
      [`${digits};01632960999;14/01/2026;9:00:00;01:00;NAT;national;X2`, /^line 3: column "Call Time" "9:00:00" is not a time in HH:mm:ss \(it reads as 09:00:00\)$/],
      // Written as the pattern says, a year before 1900 is no call's.
      [`${digits};01632960999;01/03/0026;10:00:00;01:00;NAT;national;X2`, /^line 3: startTime \(column "Call Date" and "Call Time"\) "0026-03-01T10:00:00Z" is before 1900/],
      [`${digits};01632960999;14/01/2026;25:00:00;01:00;NAT;national;X2`, /^line 3: column "Call Time"/],
      [`${digits};01632960999;14/01/2026;10:00:00;1:75;NAT;national;X2`, /^line 3: column "Duration" "1:75" is not a duration in mm:ss/],
      [`${digits};01632960999;14/01/2026;10:00:00;01:00;NAT;teleport;X2`, /^line 3: callClass \(column "Type"\) "teleport"/],
      // A truncated row is refused as in our own layout, not read with empty Band, Type and Ref.
      [`${digits};01632960999;14/01/2026;10:00:00;01:00`, /^line 3: expected 8 fields, found 5$/],
    ] as const) {
      const r = await csvPost(h, '/usageFiles?format=Semicolons', [head, good, bad].join('\n'))
      assert.is(r.status, 400, JSON.stringify(r.body))
      assert.match(r.body.error, reason)
    }
    const missing = await csvPost(h, '/usageFiles?format=Semicolons', 'CLI;Dialled;Call Date;Duration;Band;Type;Ref\n')
    assert.is(missing.status, 400)
    assert.match(missing.body.error, /line 1: the file has no column "Call Time"/)
    assert.is(await count(h), before)
  })

  test("a carrier's cost past what the API accepts (contract 2) is a bad row named by its line and column, never a 500; nothing stored", async ({ h }) => {
    const { n, digits } = await numberWithTariff(h)
    const before = await count(h)
    const head = 'CLI;Dialled;Call Date;Call Time;Duration;Band;Type;Cost'
    const row = (cost: string) => `${digits};01632960999;14/01/2026;10:00:00;01:00;NAT;national;${cost}`
    for (const cost of ['999999999999999.9999', '900000000000000', '-100000000000']) {
      const r = await csvPost(h, '/usageFiles?format=Costed', [head, row('0.90'), row(cost)].join('\n'))
      assert.equal([r.status, r.body.error_code], [400, 400101], JSON.stringify(r.body))
      assert.match(r.body.error, new RegExp(`^line 3: wholesaleCost \\(column "Cost"\\) "${cost}" is beyond the largest amount accepted`))
    }
    assert.is(await count(h), before)
    const r = await csvPost(h, '/usageFiles?format=Costed', [head, row('99999999999.9999')].join('\n'))
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal((await h.request('GET', `/numbers/${n}/calls`)).body.map((c: any) => c.carrierCost), [99999999999.9999])
  })

  test('dd/MM/yy: a two-digit year is within 50 years of the clock\'s date (14/01/26 is 2026, not 1926)', async ({ h }) => {
    const { n, digits } = await numberWithTariff(h)
    const r = await csvPost(h, '/usageFiles?format=Piped', `CLI|Dialled|When|Dur|Band|Type\n${digits}|01632960999|14/01/26 10:00|60|NAT|national\n${digits}|01632960999|31/12/25 23:59|60|NAT|national\n`)
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal((await calls(h, n)).map((c: any[]) => c[2]), ['2026-01-14T10:00:00.000Z', '2025-12-31T23:59:00.000Z'])
  })

  test('HH:mm:ss.SSS: the fraction is kept, as our layout keeps it: two calls in one second are two calls, not a duplicate', async ({ h }) => {
    const { n, digits } = await numberWithTariff(h)
    const apart = await csvPost(h, '/usageFiles?format=Fractions', `CLI;Dialled;Date;Time;Dur;Band;Type\n${digits};01632960999;14/01/2026;10:00:00.200;5;NAT;national\n${digits};01632960999;14/01/2026;10:00:00.700;5;NAT;national\n${digits};01632960999;14/01/2026;10:00:01.000;5;NAT;national\n`)
    assert.is(apart.status, 201, JSON.stringify(apart.body))
    assert.equal([apart.body.imported, apart.body.duplicates], [3, 0])
    const together = await csvPost(h, '/usageFiles?format=FractionsWithDate', `CLI;Dialled;When;Dur;Band;Type\n${digits};01632960999;15/01/2026 10:00:00.200;5;NAT;national\n${digits};01632960999;15/01/2026 10:00:00.700;5;NAT;national\n`)
    assert.is(together.status, 201, JSON.stringify(together.body))
    assert.equal([together.body.imported, together.body.duplicates], [2, 0])
    assert.equal((await calls(h, n)).map((c: any[]) => c[2]).sort(), ['2026-01-14T10:00:00.200Z', '2026-01-14T10:00:00.700Z', '2026-01-14T10:00:01.000Z', '2026-01-15T10:00:00.200Z', '2026-01-15T10:00:00.700Z'])
    // Sent again: every call is one stored before.
    assert.equal((await csvPost(h, '/usageFiles?format=Fractions', `CLI;Dialled;Date;Time;Dur;Band;Type\n${digits};01632960999;14/01/2026;10:00:00.700;5;NAT;national\n`)).body.duplicates, 1)
  })

  test('yyyy-DDD: a day of the year is read as one, and nothing is printed on the console', async ({ h }) => {
    const { n, digits } = await numberWithTariff(h)
    const printed = quietConsole()
    let r
    try {
      r = await csvPost(h, '/usageFiles?format=Ordinal', `CLI,Dialled,When,Dur,Band,Type\n${digits},01632960999,2026-014 10:00,60,NAT,national\n${digits},01632960999,2026-365 23:59,60,NAT,national\n`)
    } finally {
      printed.restore()
    }
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal((await calls(h, n)).map((c: any[]) => c[2]), ['2026-01-14T10:00:00.000Z', '2026-12-31T23:59:00.000Z'])
    assert.equal(printed.lines, [], 'nothing on the console')
  })

  test('a dateFormat or timeFormat date-fns refuses fails the presets when they load, naming the format and the fix, and nothing is printed', () => {
    const printed = quietConsole()
    try {
      const entry = (dateFormat: string, timeFormat = 'HH:mm:ss') => ({ usageFormats: { Bad: { columns: { callingNumber: 'CLI', dialledNumber: 'D', startTime: 'W', durationSeconds: 'S' }, dateFormat, timeFormat, carrier: 'Gamma' } } })
      assert.throws(() => mergePresets(entry('DD/MM/YYYY')), /usageFormats\.Bad\.dateFormat: "DD\/MM\/YYYY" is not a date-fns pattern: Use `dd` for the day of the month: `DD` is the day of the year/)
      assert.throws(() => mergePresets(entry('dd/MM/YYYY')), /usageFormats\.Bad\.dateFormat: "dd\/MM\/YYYY" is not a date-fns pattern: Use `yyyy` for the year: `YYYY` is the week-numbering year/)
      assert.throws(() => mergePresets(entry('dd/MM/yyyy', 'hh:mm:ss z')), /usageFormats\.Bad\.timeFormat: "hh:mm:ss z" is not a date-fns pattern/)
    } finally {
      printed.restore()
    }
    assert.equal(printed.lines, [], 'nothing on the console')
  })

  test.run()
}
