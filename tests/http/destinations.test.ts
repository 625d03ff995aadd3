import { hash } from 'node:crypto'
import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Stamp } from '../../core/dates/stamp.js'
import { speltCarrierFingerprint } from '../../core/rating/usage-fingerprint.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

// Contract 17.2. Wed 2026-01-14 10:00 UTC; every call 60 s, one minute at its band's rate.
const csvPost = (h: Harness, path: string, body: string) => h.request('POST', path, undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
let serial = 0

/** A destination table of these CSV rows (after the header); returns its ID. */
async function table(h: Harness, name: string, rows: string[]): Promise<string> {
  const t = await h.request('POST', '/destinationTables', { name })
  assert.is(t.status, 201, JSON.stringify(t.body))
  const r = await csvPost(h, `/destinationTables/${t.body.id}/destinations`, ['prefix,chargeBand,callClass,description', ...rows].join('\n') + '\n')
  assert.is(r.status, 201, JSON.stringify(r.body))
  assert.is(r.body.imported, rows.length)
  return t.body.id
}

async function tariff(h: Harness, fields: Record<string, unknown>, rows: [string, string][]): Promise<string> {
  const name = `Dest${++serial}`
  const t = await h.request('POST', '/tariffs', { name, baseRoundSeconds: 60, ...fields })
  assert.is(t.status, 201, JSON.stringify(t.body))
  for (const [chargeBand, cost] of rows) await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand, timeBand: 'any', cost })
  return name
}

async function number(h: Harness, tariffName: string) {
  const c = (await h.request('POST', '/customers', {})).body.id
  const digits = `016329${String(60000 + ++serial).padStart(5, '0')}`
  const fields = { nationalTariff: tariffName, mobileTariff: tariffName, internationalTariff: tariffName }
  const n = await h.request('POST', `/customers/${c}/numbers`, { number: digits, ...fields })
  assert.is(n.status, 201, JSON.stringify(n.body))
  return { id: n.body.id as string, digits }
}

const calls = async (h: Harness, n: string) => (await h.request('GET', `/numbers/${n}/calls?limit=100`)).body.map((c: any) => [c.dialledNumber, c.chargeBand, c.callType, c.cost])
const files = async (h: Harness) => (await h.request('GET', '/usageFiles?limit=1000')).body.length

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`destination tables (contract 17.2) [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
    await table(ctx.h, 'default', ['44,UK-GEO,national,UK', '447,UK-MOB,mobile,UK mobiles', '4477,UK-MOB77,Mobile,UK 077', '33,FRANCE,international,France'])
  })
  test.after(async (ctx) => ctx.h.close())

  test('overlapping prefixes 44, 447, 4477: the longest wins, after each normalisation', async ({ h }) => {
    const t = await tariff(h, {}, [['UK-GEO', '0.01'], ['UK-MOB', '0.10'], ['UK-MOB77', '0.20'], ['FRANCE', '0.50'], ['OWN', '0.07']])
    const n = await number(h, t)
    const body = [
      'callingNumber,dialledNumber,startTime,durationSeconds,carrier,chargeBand,callClass',
      `${n.digits},+44 1632 960000,2026-01-14T10:00:00Z,60,Gamma,,`, // + international: 44
      `${n.digits},00447700900000,2026-01-14T10:01:00Z,60,Gamma,,`, // 00 international: 4477
      `${n.digits},07400 123456,2026-01-14T10:02:00Z,60,Gamma,,`, // national 0 under 44: 447
      `${n.digits},447123456789,2026-01-14T10:03:00Z,60,Gamma,,`, // bare international digits: 447
      `${n.digits},+33 1 23 45 67 89,2026-01-14T10:04:00Z,60,Gamma,,`, // another country: 33
      `${n.digits},+44 (0)20 7946 0000,2026-01-14T10:05:00Z,60,Gamma,,`, // trunk (0) dropped: 44
      `${n.digits},07700900001,2026-01-14T10:06:00Z,60,Gamma,OWN,mobile`, // given: kept
      `${n.digits},07700900002,2026-01-14T10:07:00Z,60,Gamma,OWN,`, // band given, class looked up: mobile (4477)
    ].join('\n')
    const r = await csvPost(h, '/usageFiles', body)
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.is(r.body.rated, 8)
    assert.equal(await calls(h, n.id), [
      ['+44 1632 960000', 'UK-GEO', 'national', 0.01],
      ['00447700900000', 'UK-MOB77', 'mobile', 0.2],
      ['07400 123456', 'UK-MOB', 'mobile', 0.1],
      ['447123456789', 'UK-MOB', 'mobile', 0.1],
      ['+33 1 23 45 67 89', 'FRANCE', 'international', 0.5],
      ['+44 (0)20 7946 0000', 'UK-GEO', 'national', 0.01],
      ['07700900001', 'OWN', 'mobile', 0.07],
      ['07700900002', 'OWN', 'mobile', 0.07],
    ])
  })

  test("the national tariff's locationLookupCarrier names the table; GET ?prefix= finds one prefix", async ({ h }) => {
    const gamma = await table(h, 'Gamma', ['44,GAMMA-GEO,national,'])
    const t = await tariff(h, { locationLookupCarrier: 'Gamma' }, [['GAMMA-GEO', '0.03'], ['UK-GEO', '0.01']])
    const n = await number(h, t)
    const r = await csvPost(h, '/usageFiles', `callingNumber,dialledNumber,startTime,durationSeconds,carrier\n${n.digits},01632960000,2026-01-14T10:00:00Z,60,Gamma\n`)
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal(await calls(h, n.id), [['01632960000', 'GAMMA-GEO', 'national', 0.03]])
    const found = await h.request('GET', `/destinationTables/${gamma}/destinations?prefix=44`)
    assert.equal(found.body.map((d: any) => [d.prefix, d.chargeBand, d.callClass]), [['44', 'GAMMA-GEO', 'national']])
  })

  test('a dialled number no prefix matches fails the file with its line and number; nothing is stored', async ({ h }) => {
    const t = await tariff(h, {}, [['UK-GEO', '0.01']])
    const n = await number(h, t)
    const before = await files(h)
    const r = await csvPost(h, '/usageFiles', `callingNumber,dialledNumber,startTime,durationSeconds,carrier\n${n.digits},01632960000,2026-01-14T10:00:00Z,60,Gamma\n${n.digits},+1 212 555 0100,2026-01-14T10:01:00Z,60,Gamma\n`)
    assert.is(r.status, 400)
    assert.match(r.body.error, /line 3: dialledNumber "\+1 212 555 0100"/)
    assert.is(await files(h), before)
    assert.equal(await calls(h, n.id), [])
  })

  test('a bad destination CSV is refused naming its line, and nothing of it is stored', async ({ h }) => {
    const t = (await h.request('POST', '/destinationTables', { name: `bad${++serial}` })).body.id
    const post = (rows: string[]) => csvPost(h, `/destinationTables/${t}/destinations`, ['prefix,chargeBand,callClass', ...rows].join('\n'))
    for (const [rows, line, reason] of [
      [['44,UK,national', '4x7,UK,mobile'], 3, /prefix "4x7" is not 1 to 15 digits/],
      [['44,UK,national', '447,UK,teleport'], 3, /callClass "teleport"/],
      [['44,UK,national', '447,UK,inbound'], 3, /callClass "inbound"/],
      [['44,UK,national', '447,,mobile'], 3, /chargeBand is empty/],
      [['44,UK,national', '44,UK,mobile'], 3, /prefix 44 is on line 2 already/],
      // Malformed CSV names its line as a bad value does (400101), not a failure of ours.
      [['"44,UK,national'], 2, /a quoted field is not closed/],
      [['44,UK,national', '447,U"K,mobile'], 3, /Invalid Opening Quote/],
    ] as const) {
      const r = await post([...rows])
      assert.is(r.status, 400, JSON.stringify(r.body))
      assert.is(r.body.error_code, 400101)
      assert.match(r.body.error, new RegExp(`^line ${line}: `))
      assert.match(r.body.error, reason)
    }
    assert.is((await h.request('GET', `/destinationTables/${t}/destinations`)).body.length, 0)
    assert.is((await csvPost(h, `/destinationTables/${t}/destinations`, 'prefix,band\n44,UK')).status, 400)
    // JSON: one prefix, checked the same way.
    assert.is((await h.request('POST', `/destinationTables/${t}/destinations`, { prefix: '+44', chargeBand: 'UK', callClass: 'national' })).status, 400)
    const one = await h.request('POST', `/destinationTables/${t}/destinations`, { prefix: '44', chargeBand: 'UK', callClass: 'national' })
    assert.is(one.status, 201, JSON.stringify(one.body))
    const again = await post(['44,UK,national'])
    assert.is(again.status, 400)
    assert.match(again.body.error, /line 2: prefix 44 is in the table already/)
    // A prefix the table has, given as JSON: 409001 naming the prefix (the unique key is the table's and the prefix).
    const taken = await h.request('POST', `/destinationTables/${t}/destinations`, { prefix: '44', chargeBand: 'UK2', callClass: 'national' })
    assert.equal([taken.status, taken.body.error_code, taken.body.error], [409, 409001, 'prefix 44 is in the table already'])
    // Another table may have it.
    const other = (await h.request('POST', '/destinationTables', { name: `other${++serial}` })).body.id
    assert.is((await h.request('POST', `/destinationTables/${other}/destinations`, { prefix: '44', chargeBand: 'UK', callClass: 'national' })).status, 201)
  })

  // Audit: a NUL answered 500 on Postgres (its text columns cannot hold one) and was stored by SQLite;
  // the JSON form refuses it, and so does a usage file, naming its line.
  test('a NUL in a destination CSV is 400101 naming its line and field, as the JSON form refuses it; nothing stored', async ({ h }) => {
    const t = (await h.request('POST', '/destinationTables', { name: `nul${++serial}` })).body.id
    for (const [row, error] of [
      ['447,UK\u0000,mobile,Mobiles', 'line 3: chargeBand holds a NUL character'],
      ['447,UK,mobile,Mob\u0000iles', 'line 3: description holds a NUL character'],
    ]) {
      const r = await csvPost(h, `/destinationTables/${t}/destinations`, `prefix,chargeBand,callClass,description\n44,UK,national,\n${row}\n`)
      assert.equal([r.status, r.body.error_code, r.body.error], [400, 400101, error], JSON.stringify(r.body))
    }
    assert.is((await h.request('GET', `/destinationTables/${t}/destinations`)).body.length, 0)
    const json = await h.request('POST', `/destinationTables/${t}/destinations`, { prefix: '447', chargeBand: 'UK\u0000', callClass: 'mobile' })
    assert.equal([json.status, json.body.error_code], [400, 400101], JSON.stringify(json.body))
  })

  test.run()
}

for (const target of activeTargets()) {
  // Tables without a national prefix: a batch's lookup reads the national tariffs only because
  // the table choice needs them.
  const test = suite<{ h: Harness; gamma: string }>(`destination tables: the table chosen, a record sent again (contract 17.2, 9.6) [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
    await table(ctx.h, 'default', ['447,DEF-MOB,mobile,'])
    ctx.gamma = await table(ctx.h, 'Gamma', ['447,GAMMA-MOB,mobile,'])
  })
  test.after(async (ctx) => ctx.h.close())
  const head = 'callingNumber,dialledNumber,startTime,durationSeconds,carrier,chargeBand,callClass\n'

  test("a record giving callClass but not chargeBand is looked up in the table its number's, else its customer's, national tariff names", async ({ h }) => {
    const t = await tariff(h, { locationLookupCarrier: 'Gamma' }, [['GAMMA-MOB', '0.20'], ['DEF-MOB', '0.10']])
    const n = await number(h, t)
    const c = (await h.request('POST', '/customers', { defaultNationalTariff: t, defaultMobileTariff: t })).body.id
    const m = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632970002' })).body.id
    const r = await csvPost(h, '/usageFiles', head + `${n.digits},+447700900000,2026-01-14T10:00:00Z,60,Gamma,,mobile\n01632970002,+447700900001,2026-01-14T10:00:00Z,60,Gamma,,mobile\n`)
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.is(r.body.rated, 2)
    assert.equal(await calls(h, n.id), [['+447700900000', 'GAMMA-MOB', 'mobile', 0.2]])
    assert.equal(await calls(h, m), [['+447700900001', 'GAMMA-MOB', 'mobile', 0.2]])
  })

  test('a file sent again after its table gained a longer prefix is a duplicate: the key is of the record as read', async ({ h, gamma }) => {
    const t = await tariff(h, { locationLookupCarrier: 'Gamma' }, [['GAMMA-MOB', '0.20'], ['GAMMA-MOB77', '0.30']])
    const n = await number(h, t)
    const file = head + `${n.digits},+447700900000,2026-01-15T10:00:00Z,60,Gamma,,\n${n.digits},+447700900000,2026-01-15T10:01:00Z,60,Gamma,,mobile\n`
    const r = await csvPost(h, '/usageFiles', file)
    assert.equal([r.status, r.body.imported], [201, 2], JSON.stringify(r.body))
    const added = await h.request('POST', `/destinationTables/${gamma}/destinations`, { prefix: '4477', chargeBand: 'GAMMA-MOB77', callClass: 'mobile' })
    assert.is(added.status, 201, JSON.stringify(added.body))
    const again = await csvPost(h, '/usageFiles', file)
    assert.equal([again.status, again.body.rows, again.body.imported, again.body.duplicates], [201, 2, 0, 2], JSON.stringify(again.body))
    assert.equal(await calls(h, n.id), [
      ['+447700900000', 'GAMMA-MOB', 'mobile', 0.2],
      ['+447700900000', 'GAMMA-MOB', 'mobile', 0.2],
    ])
  })

  test('a call stored under the key of its looked-up band and class (imports before the key was of the record as read) is a duplicate while the table gives them', async ({ h }) => {
    const t = await tariff(h, { locationLookupCarrier: 'Gamma' }, [['GAMMA-MOB', '0.20']])
    const n = await number(h, t)
    const file = head + `${n.digits},+447800900000,2026-01-16T10:00:00Z,60,Gamma,,\n`
    assert.is((await csvPost(h, '/usageFiles', file)).body.imported, 1)
    // Its key as those imports made it: of the record after the lookup (the carrier as spelt, as before migration 0087).
    const resolved = {
      lineNumber: 2, callingNumber: n.digits, dialledNumber: '+447800900000', startTime: '2026-01-16T10:00:00.000Z' as Stamp, durationSeconds: 60,
      chargeBand: 'GAMMA-MOB', callClass: 'mobile', carrier: 'Gamma', bytes: null, events: null, origination: 'fixed', recorded: false, externalID: null, wholesaleCost: null,
    } as const
    const old = hash('sha256', speltCarrierFingerprint(resolved), 'hex')
    const { db, dialect } = h.platform.database
    const keyed = await sql<{ fingerprint: string }>`update calls set fingerprint = ${old} where "numberID" = ${dialect.encodeId(n.id)} and fingerprint <> ${old} returning fingerprint`.execute(db)
    assert.is(keyed.rows.length, 1, 'the key of the record as read is not the old one')
    // As if imported before the upgrade: only calls up to migration 0066's mark are looked for.
    await sql`delete from old_call_keys`.execute(db)
    await sql`insert into old_call_keys ("throughCallID") select max(id) from calls`.execute(db)
    const again = await csvPost(h, '/usageFiles', file)
    assert.equal([again.status, again.body.imported, again.body.duplicates], [201, 0, 1], JSON.stringify(again.body))
    assert.is((await calls(h, n.id)).length, 1)
  })

  test.run()
}
