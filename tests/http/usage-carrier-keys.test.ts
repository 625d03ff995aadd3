import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Stamp } from '../../core/dates/stamp.js'
import { mergePresets } from '../../core/presets/presets.js'
import { speltCarrierFingerprint } from '../../core/rating/usage-fingerprint.js'
import type { UsageRecord } from '../../core/rating/usage-record.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

// README: "a record sent again is not stored twice". A record with an `externalID` is its carrier's
// record of that ID, whatever its start (usage-fingerprint.ts), and carriers' names compare
// ignoring case and surrounding spaces (sameCarrier): on every database, across Postgres's month
// partitions of calls, at once, and for calls stored before keys held the carrier so (migration 0087).
const head = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID'
const presets = mergePresets({
  usageFormats: {
    G: {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: 'When', durationSeconds: 'Dur', chargeBand: 'Band', callClass: 'Type', externalID: 'Ref' },
      dateFormat: 'yyyy-MM-dd',
      timeFormat: 'HH:mm:ss',
      duration: 'seconds',
      carrier: 'Gamma',
    },
    // Starts to the millisecond: before migration 0087, a format cut them to the second.
    Fractions: {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: 'When', durationSeconds: 'Dur', chargeBand: 'Band', callClass: 'Type' },
      dateFormat: 'yyyy-MM-dd',
      timeFormat: 'HH:mm:ss.SSS',
      duration: 'seconds',
      carrier: 'Gamma',
    },
    FractionsLower: {
      columns: { callingNumber: 'CLI', dialledNumber: 'Dialled', startTime: 'When', durationSeconds: 'Dur', chargeBand: 'Band', callClass: 'Type' },
      dateFormat: 'yyyy-MM-dd',
      timeFormat: 'HH:mm:ss.SSS',
      duration: 'seconds',
      carrier: 'gamma',
    },
  },
})
const post = (h: Harness, body: string, query = '') => h.request('POST', `/usageFiles${query}`, undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
const counts = (r: { status: number; body: any }) => [r.status, r.body.imported, r.body.duplicates]

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; digits: () => Promise<{ id: string; digits: string }> }>(`usage record keys: externalID and carrier case [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { presets })
    const h = ctx.h
    const t = (await h.request('POST', '/tariffs', { name: 'T', baseRoundSeconds: 1 })).body.id
    await h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.60' })
    const customer = (await h.request('POST', '/customers', { defaultNationalTariff: 'T' })).body.id
    let next = 100
    ctx.digits = async () => {
      const digits = `01632960${next++}`
      const id = (await h.request('POST', `/customers/${customer}/numbers`, { number: digits })).body.id
      return { id, digits }
    }
  })
  test.after(async (ctx) => ctx.h.close())

  const callsOf = async (h: Harness, number: string) => (await h.request('GET', `/numbers/${number}/calls`)).body.map((c: any) => [c.startTime, c.cost ?? c.unbilledReason])

  test('a record re-sent with the same externalID and a corrected start, in the same month or the next, is stored once', async ({ h, digits }) => {
    const n = await digits()
    const row = (start: string) => `${head}\n${n.digits},01632960999,${start},60,NAT,national,Gamma,CDR-1\n`
    assert.equal(counts(await post(h, row('2026-01-31T23:59:50Z'))), [201, 1, 0])
    assert.equal(counts(await post(h, row('2026-01-31T23:59:51Z'))), [201, 0, 1])
    assert.equal(counts(await post(h, row('2026-02-01T00:00:10Z'))), [201, 0, 1])
    assert.equal(await callsOf(h, n.id), [['2026-01-31T23:59:50.000Z', 0.6]])
  })

  test('the same externalID twice in one file, in two months, is stored once', async ({ h, digits }) => {
    const n = await digits()
    const r = await post(h, `${head}\n${n.digits},01632960999,2026-01-31T23:59:50Z,60,NAT,national,Gamma,CDR-2\n${n.digits},01632960999,2026-02-01T00:00:10Z,60,NAT,national,Gamma,CDR-2\n`)
    assert.equal(counts(r), [201, 1, 1])
    assert.equal(await callsOf(h, n.id), [['2026-01-31T23:59:50.000Z', 0.6]])
  })

  test('two imports at once of one externalID in two months store it once', async ({ h, digits }) => {
    const n = await digits()
    const row = (start: string) => `${head}\n${n.digits},01632960999,${start},60,NAT,national,Gamma,CDR-3\n`
    const both = await Promise.all([post(h, row('2026-01-31T23:59:50Z')), post(h, row('2026-02-01T00:00:10Z'))])
    assert.equal(both.map((r) => r.status), [201, 201], JSON.stringify(both.map((r) => r.body)))
    assert.is(both[0].body.imported + both[1].body.imported, 1)
    assert.is((await callsOf(h, n.id)).length, 1)
  })

  test("a carrier's name counts ignoring case and spaces: GAMMA in our layout and Gamma through a format are one record", async ({ h, digits }) => {
    const n = await digits()
    assert.equal(counts(await post(h, `${head}\n${n.digits},01632960999,2026-01-14T10:00:00Z,60,NAT,national,GAMMA,R-1\n`)), [201, 1, 0])
    assert.equal(counts(await post(h, `CLI,Dialled,When,Dur,Band,Type,Ref\n${n.digits},01632960999,2026-01-14 10:00:00,60,NAT,national,R-1\n`, '?format=G')), [201, 0, 1])
    // Without an externalID, every field is the key: the carrier as compared among them.
    const plain = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier\n'
    const r = await post(h, `${plain}${n.digits},01632960999,2026-01-14T11:00:00Z,60,NAT,national,Gamma\n${n.digits},01632960999,2026-01-14T11:00:00Z,60,NAT,national,gamma \n`)
    assert.equal(counts(r), [201, 1, 1])
    assert.is((await callsOf(h, n.id)).length, 2)
  })

  test('a call stored before migration 0087, keyed by its carrier as spelt (claiming no key), is still a duplicate', async ({ h, digits }) => {
    const n = await digits()
    const rows = [
      `${n.digits},01632960999,2026-01-31T23:59:50Z,60,NAT,national,Gamma,OLD-1`,
      `${n.digits},01632960999,2026-01-31T23:59:40Z,60,NAT,national,gamma,OLD-2`,
      `${n.digits},01632960999,2026-01-20T10:00:00Z,60,NAT,national,Gamma,`,
    ]
    assert.equal(counts(await post(h, `${head}\n${rows.join('\n')}\n`)), [201, 3, 0])
    // As an import before 0087 keyed and stored them: the carrier as spelt, no key claimed. A re-send
    // spelling it as then is found; one spelling it otherwise cannot be (the old key is of the old spelling).
    const olds = [record(n.digits, '2026-01-31T23:59:50.000Z', 'Gamma', 'OLD-1'), record(n.digits, '2026-01-31T23:59:40.000Z', 'gamma', 'OLD-2'), record(n.digits, '2026-01-20T10:00:00.000Z', 'Gamma')]
    await keyedAsBefore0087(h, n.id, olds)
    const again = [
      `${n.digits},01632960999,2026-02-01T00:00:10Z,60,NAT,national,Gamma,OLD-1`,
      `${n.digits},01632960999,2026-02-01T00:00:20Z,60,NAT,national,gamma,OLD-2`,
      `${n.digits},01632960999,2026-01-20T10:00:00Z,60,NAT,national,Gamma,`,
    ]
    assert.equal(counts(await post(h, `${head}\n${again.join('\n')}\n`)), [201, 0, 3])
    assert.is((await callsOf(h, n.id)).length, 3)
  })

  test('a call a format stored before migration 0087, its start cut to the second, is a duplicate when the format now reads its fraction; a second call in that second from our layout is not', async ({ h, digits }) => {
    const n = await digits()
    const plain = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier\n'
    // As a format import before 0087 stored them: the start cut to the second, keyed by the carrier as spelt.
    const olds = [record(n.digits, '2026-01-21T10:00:00.000Z', 'Gamma'), record(n.digits, '2026-01-21T10:05:30.000Z', 'gamma')]
    assert.equal(counts(await post(h, `${plain}${olds.map((o) => `${n.digits},01632960999,${o.startTime},60,NAT,national,${o.carrier}`).join('\n')}\n`)), [201, 2, 0])
    await keyedAsBefore0087(h, n.id, olds)
    const format = (start: string) => `CLI,Dialled,When,Dur,Band,Type\n${n.digits},01632960999,${start},60,NAT,national\n`
    // Sent again through the formats, which now keep the milliseconds: the calls stored then.
    assert.equal(counts(await post(h, format('2026-01-21 10:00:00.250'), '?format=Fractions')), [201, 0, 1])
    assert.equal(counts(await post(h, format('2026-01-21 10:05:30.450'), '?format=FractionsLower')), [201, 0, 1])
    // Our own layout always kept fractions: a call 700 ms into that second is another call.
    assert.equal(counts(await post(h, `${plain}${n.digits},01632960999,2026-01-21T10:00:00.700Z,60,NAT,national,Gamma\n`)), [201, 1, 0])
    assert.equal((await callsOf(h, n.id)).map((c: any[]) => c[0]).sort(), ['2026-01-21T10:00:00.000Z', '2026-01-21T10:00:00.700Z', '2026-01-21T10:05:30.000Z'])
  })

  test.run()
}

/** A record of our layout's columns, as an import keyed it (`speltCarrierFingerprint`). */
function record(calling: string, start: string, carrier: string, externalID: string | null = null): UsageRecord {
  return {
    lineNumber: 2, callingNumber: calling, dialledNumber: '01632960999', startTime: start as Stamp, durationSeconds: 60, chargeBand: 'NAT', callClass: 'national',
    carrier, bytes: null, events: null, origination: 'fixed', recorded: false, externalID, wholesaleCost: null, lookUpDestination: null,
  } as unknown as UsageRecord
}

/** Re-keys `olds` (each one call of the number, at its start) as an import before 0087 did, claiming no key, and marks them stored then. */
async function keyedAsBefore0087(h: Harness, numberID: string, olds: readonly UsageRecord[]): Promise<void> {
  const { db, dialect } = h.platform.database
  for (const old of olds) {
    const key = createHash('sha256').update(speltCarrierFingerprint(old)).digest('hex')
    const keyed = await sql`update calls set fingerprint = ${key} where "numberID" = ${dialect.encodeId(numberID)} and "startTime" = ${old.startTime} returning id`.execute(db)
    assert.is(keyed.rows.length, 1)
  }
  await sql`delete from external_call_keys`.execute(db)
  await sql`delete from spelt_carrier_keys`.execute(db)
  await sql`insert into spelt_carrier_keys ("throughCallID") select max(id) from calls`.execute(db)
}
