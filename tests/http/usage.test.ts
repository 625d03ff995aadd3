import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const csv = (...rows: string[]) => [header, ...rows].join('\n') + '\n'
/** Every call of a number, a page of 1,000 at a time. */
async function callsOf(h: Harness, number: string): Promise<any[]> {
  const all: any[] = []
  for (;;) {
    const page = (await h.request('GET', `/numbers/${number}/calls?limit=1000${all.length ? `&idAfter=${all.at(-1).id}` : ''}`)).body
    assert.ok(Array.isArray(page), JSON.stringify(page))
    all.push(...page)
    if (page.length < 1000) return all
  }
}
const upload = (h: Harness, body: string, name = 'calls.csv') =>
  h.request('POST', `/usageFiles?name=${name}`, undefined, { raw: body, headers: { 'content-type': 'text/csv' } })

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; customer: string; number: string }>(`usage files and calls [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
    const h = ctx.h
    const t = (await h.request('POST', '/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60, baseCostMin: 0.05 })).body.id
    await h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'day', cost: '0.10', costConnection: '0.02' })
    ctx.customer = (await h.request('POST', '/customers', { defaultMobileTariff: 'UK Mobile' })).body.id
    ctx.number = (await h.request('POST', `/customers/${ctx.customer}/numbers`, { number: '01632 960 001' })).body.id
  })
  test.after(async (ctx) => ctx.h.close())

  test('a file is imported and rated; the same file or record again creates nothing twice', async ({ h, customer, number }) => {
    // Wed 2026-01-14 10:00 UTC is day time. 61 s rounds up to 120 s = 2 minutes:
    // 0.02 connection + 0.10 × 2 = 0.22. 10 s rounds to 60 s: 0.02 + 0.10 = 0.12.
    const body = csv('01632960001,07700900123,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma', '016-3296-0001,07700900124,2026-01-14T10:05:00Z,10,MOB,mobile,Gamma')
    const r = await upload(h, body)
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.rows, r.body.imported, r.body.duplicates, r.body.rated], [2, 2, 0, 2])
    const calls = (await h.request('GET', `/numbers/${number}/calls`)).body
    assert.equal(calls.map((c: any) => [c.cost, c.ratedDuration, c.customerID]), [
      [0.22, 120, customer],
      [0.12, 60, customer],
    ])
    const again = await upload(h, body)
    // A file sent twice: nothing imported, nothing rated, every row a duplicate.
    assert.equal([again.body.rows, again.body.imported, again.body.duplicates, again.body.rated, again.body.unbilled], [2, 0, 2, 0, 0])
    assert.is((await h.request('GET', `/customers/${customer}/calls`)).body.length, 2)
  })

  test("records of several classes in one batch are each priced by their class's tariff, the number's or the customer's", async ({ h }) => {
    const t = (await h.request('POST', '/tariffs', { name: 'UK National', baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'day', cost: '0.05', costConnection: '0.01' })
    const customer = (await h.request('POST', '/customers', { defaultNationalTariff: 'UK National' })).body.id
    const number = (await h.request('POST', `/customers/${customer}/numbers`, { number: '01632 960 050', mobileTariff: 'UK Mobile' })).body.id
    // 61 s of mobile on the number's tariff: 0.02 + 0.10 × 2; 30 s national on the customer's: 0.01 + 0.05 × 1.
    const r = await upload(h, csv('01632960050,07700900201,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma', '01632960050,01632960999,2026-01-14T10:01:00Z,30,NAT,national,Gamma'))
    assert.is(r.status, 201, JSON.stringify(r.body))
    const calls = (await h.request('GET', `/numbers/${number}/calls`)).body
    assert.equal(calls.map((c: any) => [c.callType, c.cost, c.tariffID === t]), [
      ['mobile', 0.22, false],
      ['national', 0.06, true],
    ])
  })

  test('one bad row rejects the whole file with its line number; nothing of it is kept', async ({ h, customer }) => {
    const before = (await h.request('GET', '/calls')).body.length
    const r = await upload(h, csv('01632960001,07700900125,2026-01-14T11:00:00Z,30,MOB,mobile,Gamma', '01632960001,07700900126,not-a-time,30,MOB,mobile,Gamma'))
    assert.is(r.status, 400)
    assert.is(r.body.error_code, 400101)
    assert.match(r.body.error, /line 3/)
    assert.is((await h.request('GET', '/calls')).body.length, before)
    assert.is((await h.request('POST', '/usageFiles', undefined, { raw: '{}', headers: { 'content-type': 'application/json' } })).status, 415)
    void customer
  })

  test('a wholesaleCost past what the API accepts (contract 2, 9.6) is a bad row named by its line, never a 500 nor a file a billing run then fails on; nothing of it is kept', async ({ h }) => {
    const before = (await h.request('GET', '/calls?limit=1000')).body.length
    const costed = (...rows: string[]) => [`${header},wholesaleCost`, ...rows].join('\n') + '\n'
    const refused = async (body: string, error: RegExp) => {
      const r = await upload(h, body, 'costly.csv')
      assert.equal([r.status, r.body.error_code], [400, 400101], JSON.stringify(r.body))
      assert.match(r.body.error, error)
    }
    // parseMoney reads 15 integer digits (about 1e19 ten-thousandths), past a bigint column (about 9.2e18).
    await refused(costed('01632960001,07700900150,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma,999999999999999.9999'), /^line 2: wholesaleCost "999999999999999.9999" is beyond the largest amount accepted \(99999999999.9999 either way\)/)
    // Two that a column holds one by one but not added up in a run's Call Charges row: before, accepted, then every run Failed.
    await refused(costed('01632960001,07700900151,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma,900000000000000', '01632960001,07700900152,2026-01-14T10:01:00Z,61,MOB,mobile,Gamma,900000000000000'), /^line 2: wholesaleCost "900000000000000" is beyond/)
    await refused(costed('01632960001,07700900153,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma,1.00', '01632960001,07700900154,2026-01-14T10:01:00Z,61,MOB,mobile,Gamma,-100000000000'), /^line 3: wholesaleCost "-100000000000" is beyond/)
    assert.is((await h.request('GET', '/calls?limit=1000')).body.length, before, 'no call of a refused file is kept')
    // At the bound's edge a cost is a cost.
    const c = (await h.request('POST', '/customers', { defaultMobileTariff: 'UK Mobile' })).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 070' })).body.id
    const edge = await upload(h, costed('01632960070,07700900155,2026-03-10T10:00:00Z,61,MOB,mobile,Gamma,99999999999.9999'), 'edge.csv')
    assert.equal([edge.status, edge.body.imported], [201, 1], JSON.stringify(edge.body))
    assert.equal((await h.request('GET', `/numbers/${n}/calls`)).body.map((x: any) => x.carrierCost), [99999999999.9999])
  })

  test('unmatched records are kept unbilled with a reason; calls can be deleted and restored', async ({ h, customer }) => {
    await upload(h, csv('09999999999,07700900127,2026-01-14T12:00:00Z,30,MOB,mobile,Gamma', '01632960001,07700900128,2026-01-14T12:01:00Z,30,MOB,mobile,Gamma'))
    const unrated = (await h.request('GET', '/calls?rated=false')).body
    assert.equal(unrated.map((c: any) => c.unbilledReason), ['no matching number'])
    const mine = (await h.request('GET', `/customers/${customer}/calls?deleted=false`)).body
    const last = mine.at(-1)
    const del = await h.request('DELETE', `/calls/${last.id}`)
    assert.is(del.body.deleted, true)
    assert.is((await h.request('GET', `/customers/${customer}/calls?deleted=true`)).body.length, 1)
    const restored = await h.request('POST', `/customers/${customer}?action=restoreCalls`, {})
    assert.is(restored.status, 200)
    assert.is((await h.request('GET', `/customers/${customer}/calls?deleted=true`)).body.length, 0)
  })

  test('a billing run rates what it can and bills rated calls up to the cutoff as Call Charges, once', async ({ h, customer, number }) => {
    const late = await upload(h, csv('01632960001,07700900129,2026-02-02T10:00:00Z,30,MOB,mobile,Gamma'), 'feb.csv')
    assert.is(late.status, 201)
    await h.request('POST', `/customers/${customer}/numbers`, { number: '09999999999' }) // the unmatched call now matches
    const { bill } = await import('../support/billing.js')
    await bill(h, '2026-01-31')
    const charges = (await h.request('GET', `/customers/${customer}/transactions?transactionType=Call%20Charges`)).body
    // January calls: 0.22 + 0.12 (file 1) + 0.12 (restored, file 3) + the re-rated 09999999999 call 0.12
    assert.equal(charges.map((t: any) => [t.numberID === number ? 'main' : 'other', t.amount, t.quantity]).sort(), [
      ['main', 0.46, 3],
      ['other', 0.12, 1],
    ])
    const feb = (await h.request('GET', `/customers/${customer}/calls?startedSince=2026-02-01T00:00:00Z`)).body
    assert.equal(feb.map((c: any) => c.transactionID), [null], 'after the cutoff: not billed yet')
    await bill(h, '2026-01-31')
    assert.is((await h.request('GET', `/customers/${customer}/transactions?transactionType=Call%20Charges`)).body.length, 2, 'not billed twice')
    const billed = (await h.request('GET', `/customers/${customer}/calls?startedSince=2026-01-01T00:00:00Z`)).body.find((c: any) => c.transactionID)
    assert.is((await h.request('DELETE', `/calls/${billed.id}`)).body.error_code, 400502, 'a billed call cannot be deleted')
  })

  test('a final bill rates and invoices the calls through dateFinalBill, past the cutoff; not those after it', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { defaultMobileTariff: 'UK Mobile' })).body.id
    await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 060' })
    const call = (from: string, at: string) => `${from},07700900140,${at},30,MOB,mobile,Gamma`
    // The 12 Feb call's number does not exist yet: the run rates it.
    const r = await upload(h, csv(call('01632960060', '2026-01-20T10:00:00Z'), call('01632960060', '2026-02-10T10:00:00Z'), call('01632960061', '2026-02-12T10:00:00Z'), call('01632960060', '2026-02-20T10:00:00Z')), 'leaving.csv')
    assert.equal([r.status, r.body.rated], [201, 3], JSON.stringify(r.body))
    await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 061' })
    assert.is((await h.request('POST', `/customers/${c}?action=finalBill`, { status: 'Final Bill', dateFinalBill: '2026-02-15' })).status, 200)
    const { bill } = await import('../support/billing.js')
    await bill(h, '2026-01-31')
    const [invoice, ...more] = (await h.request('GET', `/customers/${c}/invoices`)).body
    assert.equal(more, [])
    const calls = ((await h.request('GET', `/customers/${c}/calls?limit=100`)).body as any[]).sort((a, b) => (a.startTime < b.startTime ? -1 : 1))
    const rows = new Map(((await h.request('GET', `/customers/${c}/transactions?transactionType=Call%20Charges`)).body as any[]).map((t) => [t.id, t]))
    assert.equal(
      calls.map((x) => [x.startTime.slice(0, 10), x.rated, x.transactionID !== null && rows.get(x.transactionID)?.invoiceID === invoice.id]),
      [['2026-01-20', true, true], ['2026-02-10', true, true], ['2026-02-12', true, true], ['2026-02-20', true, false]],
    )
  })

  test('text comes back exactly, whatever its characters; unrated records keep their empty columns', async ({ h }) => {
    // Postgres receives an import column by column as arrays: quotes, backslashes, braces and
    // commas must survive that encoding as they survive a VALUES list.
    const odd = String.raw`Ca"rr,ier {x} \ 'y' NULL`
    const r = await upload(h, csv(`09999999998,"${odd.replaceAll('"', '""')}",2026-01-14T13:00:00Z,30.5,"${odd.replaceAll('"', '""')}",national,"${odd.replaceAll('"', '""')}"`), 'odd.csv')
    assert.is(r.status, 201, JSON.stringify(r.body))
    const call = (await h.request('GET', '/calls?rated=false')).body.find((c: any) => c.callingNumber === '09999999998')
    assert.equal([call.dialledNumber, call.chargeBand, call.carrier, call.durationSeconds], [odd, odd, odd, 30.5])
    assert.equal([call.customerID, call.numberID, call.tariffID, call.cost, call.timeBand, call.rated, call.unbilledReason], [null, null, null, null, null, false, 'no matching number'])
  })

  // Last: its 2,500 calls would be in the lists the tests above read.
  test('a file of several batches: all are rated; a bad row in the last keeps none', async ({ h, number }) => {
    // 2,500 records are three batches (IMPORT_BATCH). On Postgres a batch is rated and written
    // after the next one is read, so the failure below comes with an earlier batch's lookup under way.
    const rows = (bad: number | null) =>
      Array.from({ length: 2_500 }, (_, i) => {
        // Weekdays of March 2026 by day (the tariff prices MOB by day only).
        const day = [2, 3, 4, 5, 6, 9, 10, 11, 12, 13][i % 10]
        const time = i === bad ? 'not-a-time' : `2026-03-${String(day).padStart(2, '0')}T10:${String(i % 60).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}Z`
        return `01632960001,0770${String(2_000_000 + i).padStart(7, '0')},${time},10,MOB,mobile,Gamma`
      })
    const before = (await callsOf(h, number)).length
    const failed = await upload(h, csv(...rows(2_300)), 'batches-bad.csv')
    assert.is(failed.status, 400)
    assert.match(failed.body.error, /line 2302/)
    assert.is((await callsOf(h, number)).length, before)
    const r = await upload(h, csv(...rows(null)), 'batches.csv')
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.rows, r.body.imported, r.body.rated, r.body.unbilled], [2_500, 2_500, 2_500, 0])
    const calls = (await callsOf(h, number)).slice(before)
    assert.is(calls.length, 2_500)
    // 10 s rounds to 60 s on UK Mobile by day: 0.02 + 0.10 = 0.12, in every batch.
    assert.ok(calls.every((c: any) => c.cost === 0.12 && c.rated === true), JSON.stringify(calls.find((c: any) => c.cost !== 0.12)))
  })

  test("a call imported before its number existed is priced at the next run from the carrier's cost by the markup fallbacks (contract 9.6)", async ({ h }) => {
    const file = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,wholesaleCost\n01632970001,01632960999,2026-01-20T10:00:00Z,60,NAT,national,Gamma,0.0500\n'
    const r = await upload(h, file, 'before-number.csv')
    assert.equal([r.status, r.body.rated, r.body.unbilled], [201, 0, 1], JSON.stringify(r.body))
    // No tariff has a NAT rate: the customer's fallbackMarkup prices it, 0.05 + 100 %.
    const c = (await h.request('POST', '/customers', { fallbackMarkup: 100 })).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632970001' })).body.id
    const { bill } = await import('../support/billing.js')
    await bill(h, '2026-01-31')
    const calls = (await h.request('GET', `/numbers/${n}/calls`)).body
    assert.equal(calls.map((x: any) => [x.rated, x.cost, x.carrierCost, x.unbilledReason]), [[true, 0.1, 0.05, null]])
  })

  test('the database refusing one batch’s insert, with the next batch’s sent behind it, keeps none of the file', async ({ h, number }) => {
    // A trigger refuses one call of the second of three batches; a batch's insert is sent before
    // the one before it is answered, so the third's may already wait behind it.
    const { db, dialect } = h.platform.database
    const refused = '07709999999'
    const statements =
      dialect.name === 'sqlite'
        ? [`create trigger refuse_call before insert on calls when new."dialledNumber" = '${refused}' begin select raise(abort, 'refused by the test'); end`]
        : [
            `create function refuse_call() returns trigger language plpgsql as $$ begin if new."dialledNumber" = '${refused}' then raise exception 'refused by the test'; end if; return new; end $$`,
            'create trigger refuse_call before insert on calls for each row execute function refuse_call()',
          ]
    for (const statement of statements) await sql.raw(statement).execute(db)
    const rows = Array.from({ length: 2_500 }, (_, i) => `01632960001,${i === 1_400 ? refused : `0771${String(3_000_000 + i).padStart(7, '0')}`},2026-03-${String(2 + (i % 4)).padStart(2, '0')}T11:00:${String(i % 60).padStart(2, '0')}Z,10,MOB,mobile,Gamma`)
    try {
      const before = (await callsOf(h, number)).length
      const failed = await upload(h, csv(...rows), 'refused.csv')
      assert.is(failed.status, 500, JSON.stringify(failed.body))
      assert.is((await callsOf(h, number)).length, before)
      assert.ok(!(await h.request('GET', '/usageFiles?limit=500')).body.some((f: any) => f.name === 'refused.csv'), 'the file is not recorded either')
    } finally {
      await sql.raw('drop trigger refuse_call' + (dialect.name === 'sqlite' ? '' : ' on calls')).execute(db)
      if (dialect.name !== 'sqlite') await sql.raw('drop function refuse_call()').execute(db)
    }
    // The connection is left clean: the same file now goes in whole.
    const r = await upload(h, csv(...rows), 'refused-again.csv')
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.rows, r.body.imported], [2_500, 2_500])
  })

  test.run()
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`usage files: counts of what a file stored, RFC 4180 [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
    const t = (await ctx.h.request('POST', '/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60 })).body.id
    await ctx.h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'day', cost: '0.10' })
    const customer = (await ctx.h.request('POST', '/customers', { defaultMobileTariff: 'UK Mobile' })).body.id
    await ctx.h.request('POST', `/customers/${customer}/numbers`, { number: '01632 960 001' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('a file half sent before counts only what it stored: imported, rated and unbilled of the new rows', async ({ h }) => {
    const first = await upload(h, csv('01632960001,07700900123,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma'))
    assert.equal([first.body.rows, first.body.imported, first.body.rated], [1, 1, 1])
    const half = await upload(h, csv('01632960001,07700900123,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma', '09999999999,07700900199,2026-01-14T12:00:00Z,5,MOB,mobile,Gamma'))
    assert.equal([half.body.rows, half.body.imported, half.body.duplicates, half.body.rated, half.body.unbilled], [2, 1, 1, 0, 1])
  })

  test('RFC 4180 files: a quoted field may hold a line break; a semicolon-separated file is named as such', async ({ h }) => {
    const quoted = [header, '01632960001,07700900131,2026-01-14T13:00:00Z,30,MOB,mobile,"Gamma', 'Telecom"', '01632960001,07700900132,2026-01-14T13:05:00Z,30,MOB,mobile,BT'].join('\r\n')
    const r = await upload(h, quoted)
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.rows, r.body.imported], [2, 2])
    const calls = (await h.request('GET', '/calls?limit=500')).body.filter((c: any) => c.dialledNumber === '07700900131')
    assert.equal(calls.map((c: any) => c.carrier), ['Gamma\r\nTelecom'])
    const semi = await upload(h, [header.replaceAll(',', ';'), '01632960001;07700900133;2026-01-14T13:10:00Z;30;MOB;mobile;BT'].join('\n'))
    assert.is(semi.status, 400)
    assert.match(semi.body.error, /^line 1: the header is one column holding ";"/)
    assert.match(semi.body.hint, /comma-separated/)
    const bad = await upload(h, csv('01632960001,07700900134,2026-01-14T13:15:00Z,thirty,MOB,mobile,BT'))
    assert.match(bad.body.hint, /Correct line 2 and send the whole file again/)
  })

  test('a call priced at more than any amount can be (a rate of billions a minute, a markup of a huge cost) is kept unbilled with its reason: the file is imported, a run bills the rest', async ({ h }) => {
    const t = (await h.request('POST', '/tariffs', { name: 'Absurd', baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: 'ABS', timeBand: 'day', cost: '99999999999' })
    const c = (await h.request('POST', '/customers', { defaultMobileTariff: 'Absurd', fallbackMarkup: 100 })).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 080' })).body.id
    // 100,000 minutes at 99,999,999,999 a minute; a national call by the markup: 60,000,000,000 + 100 %; and one priced as usual.
    const r = await upload(h, [`${header},wholesaleCost`, '01632960080,07700900160,2026-01-14T10:00:00Z,6000000,ABS,mobile,Gamma,', '01632960080,01632900161,2026-01-14T10:00:00Z,60,NAT,national,Gamma,60000000000', '01632960080,01632900162,2026-01-14T10:05:00Z,60,NAT,national,Gamma,0.05'].join('\n') + '\n', 'absurd.csv')
    assert.equal([r.status, r.body.imported, r.body.rated, r.body.unbilled], [201, 3, 1, 2], JSON.stringify(r.body))
    const { bill } = await import('../support/billing.js')
    await bill(h, '2026-01-31')
    const calls = (await h.request('GET', `/numbers/${n}/calls`)).body
    assert.equal(calls.map((x: any) => [x.rated, x.cost, x.unbilledReason, x.transactionID === null]), [
      [false, null, 'cost beyond the largest amount', true],
      [false, null, 'cost beyond the largest amount', true],
      [true, 0.1, null, false],
    ])
  })

  test.run()
}
